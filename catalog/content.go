package catalog

import (
	"encoding/binary"
	"slices"
	"strings"
)

// AppendContent appends to b what p says of its product, in a form equal
// for two products exactly when they say the same: its key, name,
// description and notes, tags, attributes and command, its images, and
// each variant's SKU, delete mark, options, fields, stock and tier
// prices by name, in order. Where its rows are is left out, and so is
// whether they had errors (an import compares only valid products). Its
// variants' data must not have been let go (ReleaseData).
func (p *Product) AppendContent(b []byte) []byte {
	b = appendString(b, p.Key)
	b = appendString(b, p.text)
	b = appendList(append(b, flag(p.tagsSet), p.command), p.Tags())
	b = appendList(b, p.Attributes())
	images := p.Images()
	b = binary.AppendUvarint(b, uint64(len(images)))
	for _, im := range images {
		b = appendString(appendString(appendString(b, im.Source), im.Alt), im.Variant)
		b = binary.AppendUvarint(b, uint64(im.Position))
	}
	b = binary.AppendUvarint(b, uint64(len(p.Variants)))
	for i := range p.Variants {
		b = p.Variants[i].appendContent(b)
	}
	return b
}

// appendContent appends the variant's part of its product's content:
// its SKU, delete mark and entries, each named (the numbers of names
// differ from input to input), its options last and sorted by name
// (packed in the order of their names' numbers).
func (v *Variant) appendContent(b []byte) []byte {
	b = append(appendString(b, v.SKU()), flag(v.Delete()))
	var room [4]Option
	opts := room[:0]
	v.each(func(kind byte, id uint32, val string) bool {
		switch kind {
		case kOption:
			opts = append(opts, Option{v.nm.list[id], val})
			return true
		case kField, kTier:
			b = appendString(append(b, kind), v.nm.list[id])
		default:
			b = binary.AppendUvarint(append(b, kind), uint64(id))
		}
		b = appendString(b, val)
		return true
	})
	slices.SortFunc(opts, func(x, y Option) int { return strings.Compare(x.Name, y.Name) })
	for _, o := range opts {
		b = appendString(appendString(append(b, kOption), o.Name), o.Value)
	}
	return append(b, 0) // no kind is 0: the variant's end
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendList(b []byte, l []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, s := range l {
		b = appendString(b, s)
	}
	return b
}

func flag(on bool) byte {
	if on {
		return 1
	}
	return 0
}
