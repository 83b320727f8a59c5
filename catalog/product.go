// Package catalog groups evaluated rows (mapping.Row) into products with
// their variants, and validates what needs more than one row: duplicate
// SKUs, duplicate option combinations, options for attributes a product
// does not have, variants whose product never appears, required fields.
//
// Products are kept compact because every product of an input stays in
// memory until the input ends (the rows of a product need not be
// contiguous): a variant's values are packed into one string and read
// back through its methods.
package catalog

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"lading/mapping"
)

// Value is an optional value: Set is false when the source gave nothing.
type Value = mapping.Value

// RowRef names a source row as a person sees it: the file and the 1-based
// line (CSV) or row (XLSX) number.
type RowRef struct {
	File string
	Line int
}

func (r RowRef) String() string { return fmt.Sprintf("%s row %d", r.File, r.Line) }

// RowError is a validation error of one row: which column and value broke
// which rule.
type RowError struct {
	Row    RowRef
	Column string // the column (or expression) the value came from
	Value  string // the value as read
	Target string // like "variant.sku" or "option Color"
	Rule   string // what is wrong and what is allowed
	SKU    string // the row's SKU, as far as it could be read ("" if none)
}

func (e *RowError) Error() string {
	var b strings.Builder
	b.WriteString(e.Row.String())
	if e.Column != "" {
		fmt.Fprintf(&b, ", column %q", e.Column)
	}
	if e.Value != "" || e.Column != "" {
		fmt.Fprintf(&b, ", value %q", clip(e.Value))
	}
	b.WriteString(": ")
	if e.Target != "" {
		b.WriteString(e.Target + " ")
	}
	b.WriteString(e.Rule)
	return b.String()
}

// clip shortens long values (descriptions) in messages.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	r := []rune(s)
	if len(r) <= 80 {
		return s
	}
	return string(r[:77]) + "..."
}

// Skipped is a row a skip rule matched, with the rule's reason.
type Skipped struct {
	Row    RowRef
	Reason string
}

// Product is one product of the input with its variants. A million-row
// input keeps a quarter of a million of them until the import ends, so a
// product holds its key and variants, and packs the rest: its name,
// description and notes into one string, its tag and attribute lists as
// numbers of lists its products share, and what few products have
// (product rows, errors, images) behind a pointer. Read them with the
// methods.
type Product struct {
	// Key is the product's key in the source (Handle, parent SKU, ...).
	Key string
	// Variants are the product's variants in the order their rows came.
	Variants []Variant
	// text holds name, description and notes, each as its length plus 1
	// (a varint; 0: not given) and its bytes.
	text string
	nm   *names
	x    *productMore
	// first is its first row: line, and file in nm.files.
	firstLine int32
	firstFile uint32
	// tags and attrs are its lists' numbers in nm.lists, plus 1 (0: none).
	tags, attrs uint32
	// command is its command's index in mapping.Commands plus 1 (0: none).
	command uint8
	tagsSet bool
	// released is set once its variants' data is let go (ReleaseData).
	released bool
}

// productMore is what few products have.
type productMore struct {
	productRows []RowRef
	errs        []RowError
	images      []Image
}

// Name, Description and Notes are set when some row gave them.
func (p *Product) Name() Value        { return p.textAt(0) }
func (p *Product) Description() Value { return p.textAt(1) }
func (p *Product) Notes() Value       { return p.textAt(2) }

// textAt is the k-th value of p.text (0: name, 1: description, 2: notes).
func (p *Product) textAt(k int) Value {
	return unpackTexts(p.text)[k]
}

// unpackTexts reads name, description and notes out of packed text d.
func unpackTexts(d string) (out [3]Value) {
	for k := 0; k < len(out) && len(d) > 0; k++ {
		l, n := uvarint(d)
		d = d[n:]
		if l > 0 {
			out[k] = Value{S: d[:l-1], Set: true}
			d = d[l-1:]
		}
	}
	return out
}

// appendTexts packs name, description and notes onto buf.
func appendTexts(buf []byte, vs [3]Value) []byte {
	for _, v := range vs {
		if !v.Set {
			buf = append(buf, 0)
			continue
		}
		buf = binary.AppendUvarint(buf, uint64(len(v.S))+1)
		buf = append(buf, v.S...)
	}
	return buf
}

// Tags are the product's tags; TagsSet says a row gave them (an empty
// list then clears the tags). Products with the same tags share the list:
// do not change it.
func (p *Product) Tags() []string { return p.nm.listOf(p.tags) }

// TagsSet says a row gave the product's tags.
func (p *Product) TagsSet() bool { return p.tagsSet }

// Attributes are the product's attribute names, in order: those its
// product row declares, else in order of first appearance. Products with
// the same attributes share the list: do not change it.
func (p *Product) Attributes() []string { return p.nm.listOf(p.attrs) }

// First is the first row of the product in the input.
func (p *Product) First() RowRef {
	return RowRef{File: p.nm.files[p.firstFile], Line: int(p.firstLine)}
}

// Command is what its rows ask of an import (mapping.Command): the
// command of its product rows, and of its rows that are both but for
// delete, which such a row says of its variant (Variant.Delete).
func (p *Product) Command() mapping.Command {
	if p.command == 0 {
		return mapping.CommandNone
	}
	return mapping.Commands[p.command-1]
}

// ProductRows are the rows that gave product fields but no variant.
func (p *Product) ProductRows() []RowRef {
	if p.x == nil {
		return nil
	}
	return p.x.productRows
}

// Errs are the validation errors of the product's rows. A product with
// errors must not be written; its other rows are reported with it.
func (p *Product) Errs() []RowError {
	if p.x == nil {
		return nil
	}
	return p.x.errs
}

// Images are the images its rows name, in the order of the rows.
func (p *Product) Images() []Image {
	if p.x == nil {
		return nil
	}
	return p.x.images
}

// more is what few products have, made when first needed.
func (p *Product) more() *productMore {
	if p.x == nil {
		p.x = &productMore{}
	}
	return p.x
}

// addErrs adds validation errors to the product's.
func (p *Product) addErrs(errs ...RowError) {
	x := p.more()
	x.errs = append(x.errs, errs...)
}

// Image is an image (or a PDF) a product's rows name, for an import to
// upload as a product file: where it is read, as the cell gives it (a URL
// or a path); the row and column that name it; its alt text and
// position where the layout gives them (0: none); and the key of the
// variant whose row names it as that variant's image ("" for the
// product's own). Images are in row order.
type Image struct {
	Source   string
	Row      RowRef
	Column   string
	Alt      string
	Position int
	Variant  string
	// Err says why the row's value could not be read as images.
	Err string
}

// Valid reports whether the product may be written.
func (p *Product) Valid() bool { return p.x == nil || len(p.x.errs) == 0 }

// Rows returns every row of the product (product rows, variant rows, and
// rows with errors), sorted by file and line, without duplicates.
func (p *Product) Rows() []RowRef {
	out := make([]RowRef, 0, len(p.ProductRows())+len(p.Variants)+len(p.Errs()))
	out = append(out, p.ProductRows()...)
	for i := range p.Variants {
		out = append(out, p.Variants[i].Row())
	}
	for _, e := range p.Errs() {
		out = append(out, e.Row)
	}
	slices.SortFunc(out, compareRef)
	return slices.Compact(out)
}

func compareRef(a, b RowRef) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	return a.Line - b.Line
}

// SKUs returns the SKUs of the product's variants that have one: how the
// product is found in the live catalog (else by its name).
func (p *Product) SKUs() []string {
	n := 0
	for i := range p.Variants {
		if p.Variants[i].SKU() != "" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := range p.Variants {
		if s := p.Variants[i].SKU(); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// OptionValues returns the variant's option values aligned with
// p.Attributes ("" where it has no option for an attribute).
func (p *Product) OptionValues(v *Variant) []string { return p.AppendOptionValues(nil, v) }

// AppendOptionValues appends the variant's option values aligned with
// p.Attributes to buf, and returns the extended buffer.
func (p *Product) AppendOptionValues(buf []string, v *Variant) []string {
	attrs := p.Attributes()
	start := len(buf)
	for range attrs {
		buf = append(buf, "")
	}
	out := buf[start:]
	v.each(func(kind byte, id uint32, val string) bool {
		if kind == kOption {
			name := v.nm.list[id]
			for i, a := range attrs {
				if strings.EqualFold(a, name) {
					out[i] = val
					break
				}
			}
		}
		return true
	})
	return buf
}

// VariantKey is the variant's identity in the source: its SKU, or, when
// it has none, the product key and its option values joined by "|"
// ("ocean-blue-shirt|" for an attributeless variant).
func (p *Product) VariantKey(v *Variant) string {
	if sku := v.SKU(); sku != "" {
		return sku
	}
	return p.Key + "|" + strings.Join(p.OptionValues(v), "|")
}
