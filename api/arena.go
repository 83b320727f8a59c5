package api

import "bytes"

// pageArena holds what the records of one answer keep: their JSON and
// their links are parts of a few large blocks instead of an allocation
// each, so a page of 250 variants with their sideloads costs tens of
// allocations for these rather than thousands. A record keeps its block
// alive: a caller keeping a few fields of a page for long clones them
// (as the importer's snapshot does).
type pageArena struct {
	raw   []byte // the current block of records' JSON
	links []Link // the current block of links
	sets  Links  // the current block of link sets
	list  []Link // the links of the record being read, before they are kept
	set   Links  // the link sets of the record being read, before they are kept
}

const (
	arenaRawBlock  = 64 << 10
	arenaLinkBlock = 512
	arenaSetBlock  = 256
)

// keep returns a copy of b, the JSON of a record, in the arena; a nil
// arena copies b on its own.
func (a *pageArena) keep(b []byte) []byte {
	if a == nil || len(b) > arenaRawBlock/4 {
		return bytes.Clone(b)
	}
	if len(b) > cap(a.raw)-len(a.raw) {
		a.raw = make([]byte, 0, arenaRawBlock)
	}
	n := len(a.raw)
	a.raw = append(a.raw, b...)
	return a.raw[n:len(a.raw):len(a.raw)]
}

// keepLinks returns a copy of list in the arena (never nil: an empty list
// stays an empty list); a nil arena copies list on its own.
func (a *pageArena) keepLinks(list []Link) []Link {
	if a == nil || len(list) == 0 || len(list) > arenaLinkBlock/4 {
		return append([]Link{}, list...)
	}
	if len(list) > cap(a.links)-len(a.links) {
		a.links = make([]Link, 0, arenaLinkBlock)
	}
	n := len(a.links)
	a.links = append(a.links, list...)
	return a.links[n:len(a.links):len(a.links)]
}

// keepSets returns a copy of sets in the arena (never nil: a record with
// links has Links, even none); a nil arena copies sets on their own.
func (a *pageArena) keepSets(sets Links) Links {
	if a == nil || len(sets) == 0 || len(sets) > arenaSetBlock/4 {
		return append(Links{}, sets...)
	}
	if len(sets) > cap(a.sets)-len(a.sets) {
		a.sets = make(Links, 0, arenaSetBlock)
	}
	n := len(a.sets)
	a.sets = append(a.sets, sets...)
	return a.sets[n:len(a.sets):len(a.sets)]
}
