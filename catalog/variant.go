package catalog

import (
	"encoding/binary"
	"iter"
	"strings"

	"lading/internal/arena"
)

// Variant is one variant of a product. Its SKU, options, fields, stock
// and tier prices are packed into one string, and the row it came from
// into two numbers (a million variants are kept until an import ends);
// read them with the methods.
type Variant struct {
	// s is the SKU's length as a varint, the SKU, and the packed data
	// (entries, below): one string, where two took 16 bytes more a
	// variant. "" for a variant of no SKU and no data.
	s    string
	nm   *names
	line int32  // the row's line
	file uint32 // the row's file, in nm.files, and deleteBit
}

// packVariantText is s of a variant of sku and packed data d, appended to b.
func packVariantText(b []byte, sku string, d []byte) []byte {
	if sku == "" && len(d) == 0 {
		return b
	}
	b = binary.AppendUvarint(b, uint64(len(sku)))
	return append(append(b, sku...), d...)
}

// SKU is the variant's SKU, "" when the source has none.
func (v *Variant) SKU() string {
	start, end := v.skuSpan()
	return v.s[start:end]
}

// skuSpan is where the SKU starts and ends in v.s; the data follows it.
func (v *Variant) skuSpan() (start, end int) {
	switch {
	case v.s == "":
		return 0, 0
	case v.s[0] < 0x80: // a SKU shorter than 128 bytes: its length in a byte
		return 1, 1 + int(v.s[0])
	}
	l, n := uvarint(v.s)
	return n, n + int(l)
}

// data is the variant's packed data.
func (v *Variant) data() string {
	_, end := v.skuSpan()
	return v.s[end:]
}

// setData replaces the variant's packed data with d.
func (v *Variant) setData(d []byte) {
	v.s = string(packVariantText(nil, v.SKU(), d))
}

// deleteBit, in Variant.file, says the variant's row asks to delete it.
const deleteBit = 1 << 31

// Row is the row the variant came from.
func (v *Variant) Row() RowRef {
	return RowRef{File: v.nm.files[v.file&^deleteBit], Line: int(v.line)}
}

// Delete reports whether the variant's row asks to delete it (its command
// is delete, on a variant row or a row that is both).
func (v *Variant) Delete() bool { return v.file&deleteBit != 0 }

// ReleaseData lets go of what p's variants hold beyond their SKUs and
// rows: their options, fields, stock and tier prices, which their methods
// then no longer find. An import keeps them for the products it writes,
// and lets the others' go as it plans them: a million rows' data is tens
// of megabytes. The SKUs are copied into a, out of the chunks they share
// with the data. A product whose data was let go already is left as it
// is.
func (p *Product) ReleaseData(a *arena.Arena) {
	if p.released {
		return
	}
	p.released = true
	for i := range p.Variants {
		v := &p.Variants[i]
		if start, end := v.skuSpan(); start < end {
			v.s = a.Clone(v.s[:end])
		} else {
			v.s = ""
		}
	}
}

// MoveData copies the data of p's variants into a, out of the chunks
// they share with other products' rows, so that those chunks are freed
// once the other products released theirs (see ReleaseData).
func (p *Product) MoveData(a *arena.Arena) {
	for i := range p.Variants {
		v := &p.Variants[i]
		v.s = a.Clone(v.s)
	}
}

// Option is an attribute option of a variant.
type Option struct{ Name, Value string }

// Field is a variant field by wire name ("weight", "cost", "upc", ...);
// Value "" clears the field (only when the mapping says so).
type Field struct{ Name, Value string }

// Tier is a pricing-tier price: tier name and canonical decimal value.
type Tier struct{ Name, Value string }

// Entry kinds of the packed data. An entry is a head byte, the kind in
// its top 3 bits and the id in the others (idMore: the id less idMore
// follows as a varint), then the value's length as a varint and the
// value: two bytes and the value for the usual short values of the first
// names.
const (
	kOption byte = 1 + iota // id: attribute name
	kSlot                   // id: option pair number whose name is not known yet
	kField                  // id: field name
	kTier                   // id: tier name
	kStock

	kindShift = 5
	idMore    = 1<<kindShift - 1
)

// entryKind is the kind of the first entry of packed data d.
func entryKind(d string) byte { return d[0] >> kindShift }

// each calls fn for every packed entry until it returns false.
func (v *Variant) each(fn func(kind byte, id uint32, val string) bool) {
	for d := v.data(); len(d) > 0; {
		kind, id, val, rest := nextEntry(d)
		if !fn(kind, id, val) {
			return
		}
		d = rest
	}
}

// nextEntry decodes the first entry of packed data d.
func nextEntry(d string) (kind byte, id uint32, val, rest string) {
	kind, id = d[0]>>kindShift, uint32(d[0]&idMore)
	d = d[1:]
	if id == idMore {
		x, n := uvarint(d)
		id += uint32(x)
		d = d[n:]
	}
	l, m := uvarint(d)
	d = d[m:]
	return kind, id, d[:l], d[l:]
}

// optionPrefix is the packed options of the variant: options come first,
// sorted by name id, so two variants have the same combination exactly
// when their prefixes are equal.
func (v *Variant) optionPrefix() string {
	all := v.data()
	d := all
	for len(d) > 0 && entryKind(d) == kOption {
		_, _, _, d = nextEntry(d)
	}
	return all[:len(all)-len(d)]
}

// Options returns the variant's attribute options in source order.
func (v *Variant) Options() []Option {
	var out []Option
	v.each(func(kind byte, id uint32, val string) bool {
		if kind == kOption {
			out = append(out, Option{v.nm.list[id], val})
		}
		return true
	})
	return out
}

// Option returns the variant's value for the attribute name (case
// insensitive).
func (v *Variant) Option(name string) (string, bool) {
	return v.find(kOption, name)
}

// Fields returns the variant's given fields in mapping order.
func (v *Variant) Fields() []Field {
	var out []Field
	for name, val := range v.AllFields() {
		out = append(out, Field{name, val})
	}
	return out
}

// AllFields yields the name and value of each of the variant's given
// fields in mapping order: Fields without a list.
func (v *Variant) AllFields() iter.Seq2[string, string] { return v.entries(kField) }

// AllTiers yields the name and price of each of the variant's given tier
// prices in mapping order: Tiers without a list.
func (v *Variant) AllTiers() iter.Seq2[string, string] { return v.entries(kTier) }

// entries yields the name and value of each packed entry of kind k.
func (v *Variant) entries(k byte) iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		v.each(func(kind byte, id uint32, val string) bool {
			return kind != k || yield(v.nm.list[id], val)
		})
	}
}

// Field returns the value of the variant field name ("weight") and
// whether it was given.
func (v *Variant) Field(name string) (string, bool) { return v.find(kField, name) }

// Tiers returns the variant's given tier prices in mapping order.
func (v *Variant) Tiers() []Tier {
	var out []Tier
	for name, val := range v.AllTiers() {
		out = append(out, Tier{name, val})
	}
	return out
}

// Tier returns the variant's price in the tier name and whether it was
// given.
func (v *Variant) Tier(name string) (string, bool) { return v.find(kTier, name) }

// Stock returns the variant's opening stock.
func (v *Variant) Stock() Value {
	var out Value
	v.each(func(kind byte, _ uint32, val string) bool {
		if kind == kStock {
			out = Value{S: val, Set: true}
			return false
		}
		return true
	})
	return out
}

func (v *Variant) find(k byte, name string) (string, bool) {
	var s string
	var ok bool
	v.each(func(kind byte, id uint32, val string) bool {
		if kind == k && (v.nm.list[id] == name || (k == kOption && strings.EqualFold(v.nm.list[id], name))) {
			s, ok = val, true
			return false
		}
		return true
	})
	return s, ok
}

// names interns the attribute, field and tier names of a grouper, and
// the names of the files its rows come from. A few recent names are
// cached: most rows repeat the same names.
type names struct {
	list []string
	// lists are the tag and attribute lists of products, shared.
	lists [][]string
	ids   map[string]uint32
	files []string
	cache [8]struct {
		s  string
		id uint32
	}
	next int
}

// listOf is list number n less 1 (0: nil).
func (n *names) listOf(k uint32) []string {
	if k == 0 {
		return nil
	}
	return n.lists[k-1]
}

// addList adds l to the lists and returns its number plus 1.
func (n *names) addList(l []string) uint32 {
	n.lists = append(n.lists, l)
	return uint32(len(n.lists))
}

func newNames() *names { return &names{ids: map[string]uint32{}} }

func (n *names) id(s string) uint32 {
	if s != "" {
		for i := range n.cache {
			if n.cache[i].s == s {
				return n.cache[i].id
			}
		}
	}
	if id, ok := n.ids[s]; ok {
		n.remember(n.list[id], id)
		return id
	}
	s = strings.Clone(s)
	id := uint32(len(n.list))
	n.list = append(n.list, s)
	n.ids[s] = id
	n.remember(s, id)
	return id
}

func (n *names) remember(s string, id uint32) {
	n.cache[n.next] = struct {
		s  string
		id uint32
	}{s, id}
	n.next = (n.next + 1) % len(n.cache)
}

// uvarint decodes a varint written by binary.AppendUvarint from s.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x80 {
			return x | uint64(b)<<shift, i + 1
		}
		x |= uint64(b&0x7f) << shift
		shift += 7
	}
	return x, len(s)
}

// appendEntry packs one entry onto buf.
func appendEntry(buf []byte, kind byte, id uint32, val string) []byte {
	if id < idMore {
		buf = append(buf, kind<<kindShift|byte(id))
	} else {
		buf = append(buf, kind<<kindShift|idMore)
		buf = binary.AppendUvarint(buf, uint64(id-idMore))
	}
	buf = binary.AppendUvarint(buf, uint64(len(val)))
	return append(buf, val...)
}
