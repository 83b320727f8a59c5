// Package strindex finds numbered things by a text of theirs (a variant by
// its SKU, a product by its key) in an open-addressing table of their
// numbers. A million of them take 10 MB, five bytes a slot at half full or
// less, where a map of a million strings would hold their headers besides,
// and the collector would look at each.
package strindex

import "hash/maphash"

// Index finds the things numbered 0 and up by the text key gives each. It
// grows as things are added. It is not safe for concurrent use.
type Index struct {
	slots []int32 // a thing's number plus 1; 0: empty
	// tags are 8 bits of each slot's text's hash: a probe reads the text
	// of a thing (far off in memory) only where they match, 1 in 256
	// slots of other texts.
	tags []uint8
	n    int
	seed maphash.Seed
	key  func(int32) string
}

// New is an index of the texts key gives, with room for n things before
// it grows.
func New(n int, key func(int32) string) *Index {
	x := &Index{seed: maphash.MakeSeed(), key: key}
	size := tableSize(n)
	x.slots, x.tags = make([]int32, size), make([]uint8, size)
	return x
}

// tableSize is the power of two, 16 at least, that holds n things at half
// full or less.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}

// tagOf is the tag of hash h: its top 8 bits (the slot is from the bottom).
func tagOf(h uint64) uint8 { return uint8(h >> 56) }

// Add indexes thing k, unless a thing with its text is indexed already:
// then it returns that thing's number and false.
func (x *Index) Add(k int32) (int32, bool) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow()
	}
	text := x.key(k)
	h := maphash.String(x.seed, text)
	mask, tag := uint64(len(x.slots)-1), tagOf(h)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s := x.slots[i]; {
		case s == 0:
			x.slots[i], x.tags[i] = k+1, tag
			x.n++
			return k, true
		case x.tags[i] == tag && x.key(s-1) == text:
			return s - 1, false
		}
	}
}

// Find is the number of the thing whose text is text, -1 if none.
func (x *Index) Find(text string) int32 {
	h := maphash.String(x.seed, text)
	mask, tag := uint64(len(x.slots)-1), tagOf(h)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s := x.slots[i]; {
		case s == 0:
			return -1
		case x.tags[i] == tag && x.key(s-1) == text:
			return s - 1
		}
	}
}

// Len is how many things are indexed.
func (x *Index) Len() int { return x.n }

// grow doubles the table, placing every thing again.
func (x *Index) grow() {
	old := x.slots
	x.slots, x.tags = make([]int32, 2*len(old)), make([]uint8, 2*len(old))
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := maphash.String(x.seed, x.key(s-1))
		i := h & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i], x.tags[i] = s, tagOf(h)
	}
}
