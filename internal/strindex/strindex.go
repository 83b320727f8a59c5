// Package strindex finds numbered things by a text of theirs (a variant by
// its SKU, a product by its key) in an open-addressing table of their
// numbers. A million of them take 8 MB, four bytes a slot at half full or
// less, where a map of a million strings would hold their headers besides,
// and the collector would look at each.
package strindex

import "hash/maphash"

// Index finds the things numbered 0 and up by the text key gives each. It
// grows as things are added. It is not safe for concurrent use.
type Index struct {
	slots []int32 // a thing's number plus 1; 0: empty
	n     int
	seed  maphash.Seed
	key   func(int32) string
}

// New is an index of the texts key gives, with room for n things before
// it grows.
func New(n int, key func(int32) string) *Index {
	x := &Index{seed: maphash.MakeSeed(), key: key}
	x.slots = make([]int32, tableSize(n))
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

// Add indexes thing k, unless a thing with its text is indexed already:
// then it returns that thing's number and false.
func (x *Index) Add(k int32) (int32, bool) {
	if 2*(x.n+1) > len(x.slots) {
		x.grow()
	}
	text := x.key(k)
	mask := uint64(len(x.slots) - 1)
	for i := maphash.String(x.seed, text) & mask; ; i = (i + 1) & mask {
		switch s := x.slots[i]; {
		case s == 0:
			x.slots[i] = k + 1
			x.n++
			return k, true
		case x.key(s-1) == text:
			return s - 1, false
		}
	}
}

// Find is the number of the thing whose text is text, -1 if none.
func (x *Index) Find(text string) int32 {
	mask := uint64(len(x.slots) - 1)
	for i := maphash.String(x.seed, text) & mask; ; i = (i + 1) & mask {
		switch s := x.slots[i]; {
		case s == 0:
			return -1
		case x.key(s-1) == text:
			return s - 1
		}
	}
}

// Len is how many things are indexed.
func (x *Index) Len() int { return x.n }

// grow doubles the table, placing every thing again.
func (x *Index) grow() {
	old := x.slots
	x.slots = make([]int32, 2*len(old))
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := maphash.String(x.seed, x.key(s-1)) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
	}
}
