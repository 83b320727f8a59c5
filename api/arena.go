package api

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
	return run[Link]{block: &a.links, start: len(a.links), size: arenaLinkBlock}
}

// setRun starts a record's link sets in the arena's block; a nil arena
// keeps them in *own.
func (a *pageArena) setRun(own *Links) run[LinkSet] {
	if a == nil {
		return run[LinkSet]{block: (*[]LinkSet)(own)}
	}
	return run[LinkSet]{block: &a.sets, start: len(a.sets), size: arenaSetBlock}
}

// A run is a list being read into a block, in place: its elements are
// appended to the block as they come (no list on the side copied in at
// its end), and move, with the run so far, to a new block when the block
// is full. Runs of one block do not nest.
type run[T any] struct {
	block *[]T
	start int // where the run begins in *block
	size  int // of a new block (0: as append grows it)
}

// add appends v to the run.
func (ru *run[T]) add(v T) {
	b := *ru.block
	if len(b) == cap(b) && ru.size > 0 {
		n := len(b) - ru.start
		nb := make([]T, n, max(ru.size, 2*n))
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
