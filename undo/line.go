package undo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"lading/engine"
	"lading/state"
)

// Line is one record the run wrote, and what the undo makes of it.
type Line struct {
	engine.Fate
	state.Change
	// Now holds the record's fields as the account holds them now, once
	// read; Gone says the account no longer has the record.
	Now  map[string]string
	Read bool
	Gone bool
	// Restore are the fields the undo sets back, with the values they
	// had before the run.
	Restore map[string]string
}

// plan decides, for each line read, what the undo does with it: set back
// the fields that still hold the run's values; leave those back as before
// already; keep (a conflict) those someone changed since, unless forced.
func plan(lines []Line, o Options) {
	for i := range lines {
		if l := &lines[i]; l.Pending() {
			l.plan(o)
		}
	}
}

func (l *Line) plan(o Options) {
	switch {
	case !l.Read:
		l.Set(engine.Failed, "the account could not be read for this record; run the same undo again")
		return
	case l.Gone:
		l.Set(engine.Skipped, fmt.Sprintf("%s is no longer in the account: there is nothing to take back", l.name()))
		return
	}
	set, unknown, conflicts := map[string]string{}, []string{}, []string{}
	for _, f := range slices.Sorted(maps.Keys(l.After)) {
		before, known := l.Before[f]
		switch now := l.Now[f]; {
		case now == before && known:
		case !known:
			unknown = append(unknown, fmt.Sprintf("%s (%s now)", f, now))
		case now == l.After[f] || o.Force:
			set[f] = before
		default:
			conflicts = append(conflicts, fmt.Sprintf("%s is %s now; the run set %s; it was %s before", f, now, l.After[f], before))
		}
	}
	switch {
	case len(conflicts) > 0:
		l.Set(engine.Conflict, fmt.Sprintf("%s changed since the run: %s; kept as it is (a forced undo sets it back)", l.name(), strings.Join(conflicts, ", ")))
	case len(set) > 0:
		l.Restore = set
		if o.DryRun {
			l.Set(ToRestore, l.restoreText())
		}
	case len(unknown) > 0:
		l.Set(engine.Skipped, fmt.Sprintf("the value %s had before the run is not known (the run neither read it nor had set it before): %s; set it by hand if it must change", l.name(), strings.Join(unknown, ", ")))
	default:
		l.Set(engine.Unchanged, "as it was before the run already")
	}
}

// name names the line's record for a person: "the level of SKU TEE-S in
// warehouse 3", "product P1 (id 12)".
func (l *Line) name() string {
	if l.Resource == state.ResourceLevel {
		return fmt.Sprintf("the level of SKU %s in warehouse %s", l.Key, l.ParentID)
	}
	if l.RecordID != "" {
		return fmt.Sprintf("%s %s (id %s)", l.Resource, l.Key, l.RecordID)
	}
	return l.Resource + " " + l.Key
}

// restoreText says what the undo sets back: "available 36 -> 12".
func (l *Line) restoreText() string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(l.Restore)) {
		parts = append(parts, fmt.Sprintf("%s %s -> %s", f, l.Now[f], l.Restore[f]))
	}
	return strings.Join(parts, ", ")
}
