package api

// pageArena holds the links of the records of one answer: they are parts
// of a few large blocks instead of an allocation each, so a page of 250
// variants with their sideloads costs tens of allocations for these
// rather than thousands. A record keeps its block alive, as its fields
// keep the answer's body: a caller keeping a few fields of a page for
// long clones them (as the importer's snapshot does).
type pageArena struct {
	links []Link // the current block of links
	sets  Links  // the current block of link sets
	list  []Link // the links of the record being read, before they are kept
	set   Links  // the link sets of the record being read, before they are kept
}

// The sizes of the arena's blocks, in elements.
const (
	arenaLinkBlock = 512
	arenaSetBlock  = 256
)

// keepLinks returns a copy of list in the arena (never nil: an empty list
// stays an empty list); a nil arena copies list on its own.
func (a *pageArena) keepLinks(list []Link) []Link {
	if a == nil {
		return append([]Link{}, list...)
	}
	return keepIn(&a.links, arenaLinkBlock, list)
}

// keepSets returns a copy of sets in the arena (never nil: a record with
// links has Links, even none); a nil arena copies sets on their own.
func (a *pageArena) keepSets(sets Links) Links {
	if a == nil {
		return append(Links{}, sets...)
	}
	return keepIn((*[]LinkSet)(&a.sets), arenaSetBlock, sets)
}

// keepIn appends list to *block, a new block of size when it is full, and
// returns the copy, capped so that appending to it cannot reach its
// neighbours. A list of none, or larger than a quarter block, is copied
// on its own.
func keepIn[T any](block *[]T, size int, list []T) []T {
	if len(list) == 0 || len(list) > size/4 {
		return append([]T{}, list...)
	}
	if len(list) > cap(*block)-len(*block) {
		*block = make([]T, 0, size)
	}
	n := len(*block)
	*block = append(*block, list...)
	return (*block)[n:len(*block):len(*block)]
}
