package api

import "reflect"

// pageArena holds the links of the records of one answer: they are parts
// of a few large blocks instead of an allocation each, so a page of 250
// variants with their sideloads costs tens of allocations for these
// rather than thousands. A record keeps its block alive, as its fields
// keep the answer's body: a caller keeping a few fields of a page for
// long clones them (as the importer's snapshot does).
type pageArena struct {
	links []Link    // the current block of links
	sets  []LinkSet // the current block of link sets
	index []indexed // the records of a sideload being read, before they are indexed
	// linkBlocks and setBlocks are the blocks filled, for the next page
	// when a listing reuses its memory (see pageMem).
	linkBlocks blocks[Link]
	setBlocks  blocks[LinkSet]
	// records are the blocks of the records of each type read, when a
	// listing reuses its memory (reused); else each record is allocated
	// on its own, and a record kept keeps no others.
	reused  bool
	records map[reflect.Type]recycler
}

// recycler is memory emptied for the next page.
type recycler interface{ recycle() }

// recycle readies the arena for the next page: its blocks emptied, to be
// filled again.
func (a *pageArena) recycle() {
	a.links, a.sets = nil, nil
	a.linkBlocks.recycle()
	a.setBlocks.recycle()
	for _, r := range a.records {
		r.recycle()
	}
}

// recordBlocks are the blocks records of type T are read into, and the
// one being filled.
type recordBlocks[T any] struct {
	blocks blocks[T]
	cur    []T
}

func (rb *recordBlocks[T]) recycle() {
	rb.blocks.recycle()
	rb.cur = nil
}

// arenaRecordBlock is how many records a block of records holds.
const arenaRecordBlock = 64

// newRecord is a new, zero record of type T: in a's blocks when a is
// reused, else allocated on its own.
func newRecord[T any](a *pageArena) *T {
	if a == nil || !a.reused {
		return new(T)
	}
	t := reflect.TypeFor[T]()
	rb, _ := a.records[t].(*recordBlocks[T])
	if rb == nil {
		if a.records == nil {
			a.records = map[reflect.Type]recycler{}
		}
		rb = &recordBlocks[T]{}
		a.records[t] = rb
	}
	if len(rb.cur) == cap(rb.cur) {
		rb.cur = rb.blocks.take(arenaRecordBlock)
	}
	rb.cur = rb.cur[:len(rb.cur)+1]
	return &rb.cur[len(rb.cur)-1]
}

// blocks are the blocks of one kind an arena made: used by the page read,
// and spare, emptied, for the next.
type blocks[T any] struct {
	used, spare [][]T
}

// take is an empty block with room for n at least: a spare one, or new.
func (b *blocks[T]) take(n int) []T {
	k := len(b.spare) - 1
	for k >= 0 && cap(b.spare[k]) < n {
		k--
	}
	var nb []T
	if k < 0 {
		nb = make([]T, 0, n)
	} else {
		last := len(b.spare) - 1
		nb, b.spare[k] = b.spare[k], b.spare[last]
		b.spare[last] = nil
		b.spare = b.spare[:last]
	}
	b.used = append(b.used, nb)
	return nb
}

// maxSpare is how many blocks of a kind are kept for the next page: a page
// of 250 variants with their sideloads fills a few dozen.
const maxSpare = 256

// recycle empties the blocks used (what they held is cleared) and makes
// them spare, up to maxSpare.
func (b *blocks[T]) recycle() {
	for _, u := range b.used {
		if len(b.spare) < maxSpare {
			clear(u[:cap(u)])
			b.spare = append(b.spare, u[:0])
		}
	}
	clear(b.used)
	b.used = b.used[:0]
}

// The sizes of the arena's blocks, in elements.
const (
	arenaLinkBlock = 512
	arenaSetBlock  = 256
)

// linkRun starts a list of links in the arena's block; a nil arena keeps
// it in *own.
func (a *pageArena) linkRun(own *[]Link) run[Link] {
	if a == nil {
		return run[Link]{block: own}
	}
	return run[Link]{block: &a.links, start: len(a.links), size: arenaLinkBlock, blocks: &a.linkBlocks}
}

// setRun starts a record's link sets in the arena's block; a nil arena
// keeps them in *own.
func (a *pageArena) setRun(own *Links) run[LinkSet] {
	if a == nil {
		return run[LinkSet]{block: (*[]LinkSet)(own)}
	}
	return run[LinkSet]{block: &a.sets, start: len(a.sets), size: arenaSetBlock, blocks: &a.setBlocks}
}

// A run is a list being read into a block, in place: its elements are
// appended to the block as they come (no list on the side copied in at
// its end), and move, with the run so far, to a new block when the block
// is full. Runs of one block do not nest.
type run[T any] struct {
	block  *[]T
	start  int        // where the run begins in *block
	size   int        // of a new block (0: as append grows it)
	blocks *blocks[T] // where a new block comes from (with size)
}

// add appends v to the run.
func (ru *run[T]) add(v T) {
	b := *ru.block
	if len(b) == cap(b) && ru.size > 0 {
		n := len(b) - ru.start
		nb := ru.blocks.take(max(ru.size, 2*n))[:n]
		copy(nb, b[ru.start:])
		b, ru.start = nb, 0
	}
	*ru.block = append(b, v)
}

// list is the run, capped so that appending to it cannot reach what
// follows it in the block; never nil: a run of none is an empty list.
func (ru *run[T]) list() []T {
	b := *ru.block
	if len(b) == ru.start {
		return []T{}
	}
	return b[ru.start:len(b):len(b)]
}

// setLinks sets the links of resource name to items, in a run of link
// sets: a resource given twice keeps the last, as in a map.
func setLinks(sets *run[LinkSet], name string, items []Link) {
	b := *sets.block
	for i := sets.start; i < len(b); i++ {
		if b[i].Resource == name {
			b[i].Items = items
			return
		}
	}
	sets.add(LinkSet{Resource: name, Items: items})
}
