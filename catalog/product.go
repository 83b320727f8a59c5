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

// Product is one product of the input with its variants.
type Product struct {
	// Key is the product's key in the source (Handle, parent SKU, ...).
	Key string
	// Name, Description and Notes are set when some row gave them.
	Name, Description, Notes Value
	// Tags are the product's tags; TagsSet says a row gave them (an empty
	// list then clears the tags). Products with the same tags may share
	// the list: do not change it.
	Tags    []string
	TagsSet bool
	// Attributes are the product's attribute names, in order: those its
	// product row declares, else in order of first appearance. Products
	// with the same attributes may share the list: do not change it.
	Attributes []string
	// Variants are the product's variants in the order their rows came.
	Variants []Variant
	// ProductRows are the rows that gave product fields but no variant.
	ProductRows []RowRef
	// Errs are the validation errors of the product's rows. A product
	// with errors must not be written; its other rows are reported with it.
	Errs []RowError
	// First is the first row of the product in the input.
	First RowRef
	// Images are the images its rows name, in the order of the rows.
	Images []Image
	// Command is what its rows ask of an import (mapping.Command): the
	// command of its product rows, and of its rows that are both but for
	// delete, which such a row says of its variant (Variant.Delete).
	Command mapping.Command
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
func (p *Product) Valid() bool { return len(p.Errs) == 0 }

// Rows returns every row of the product (product rows, variant rows, and
// rows with errors), sorted by file and line, without duplicates.
func (p *Product) Rows() []RowRef {
	out := make([]RowRef, 0, len(p.ProductRows)+len(p.Variants)+len(p.Errs))
	out = append(out, p.ProductRows...)
	for i := range p.Variants {
		out = append(out, p.Variants[i].Row())
	}
	for _, e := range p.Errs {
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
		if p.Variants[i].SKU != "" {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for i := range p.Variants {
		if s := p.Variants[i].SKU; s != "" {
			out = append(out, s)
		}
	}
	return out
}

// OptionValues returns the variant's option values aligned with
// p.Attributes ("" where it has no option for an attribute).
func (p *Product) OptionValues(v *Variant) []string {
	out := make([]string, len(p.Attributes))
	v.each(func(kind byte, id uint32, val string) bool {
		if kind == kOption {
			name := v.nm.list[id]
			for i, a := range p.Attributes {
				if strings.EqualFold(a, name) {
					out[i] = val
					break
				}
			}
		}
		return true
	})
	return out
}

// VariantKey is the variant's identity in the source: its SKU, or, when
// it has none, the product key and its option values joined by "|"
// ("ocean-blue-shirt|" for an attributeless variant).
func (p *Product) VariantKey(v *Variant) string {
	if v.SKU != "" {
		return v.SKU
	}
	return p.Key + "|" + strings.Join(p.OptionValues(v), "|")
}
