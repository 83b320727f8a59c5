package undo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"lading/engine"
	"lading/importer"
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
	// Undo is what the undo writes to the record: OpUpdate (Restore),
	// OpDelete or OpArchive; "" for nothing.
	Undo state.Op
	// Restore are the fields the undo sets back, with the values they
	// had before the run.
	Restore map[string]string
}

// plan decides, for each line read, what the undo does with it: delete
// (or archive) what the run created, set back the fields that still hold
// the run's values and leave those back as before already; keep (a
// conflict) what someone changed since, unless forced; say why what the
// run archived or deleted stays so.
func plan(lines []Line, o Options) {
	taken := map[string]state.Op{} // products the undo deletes or archives
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Resource == state.ResourceProduct && l.Op == state.OpCreate {
			l.plan(o, nil)
			if l.Undo != "" || l.Action == engine.Unchanged {
				taken[l.RecordID] = map[bool]state.Op{true: state.OpArchive, false: state.OpDelete}[o.Archive]
			}
		}
	}
	for i := range lines {
		if l := &lines[i]; l.Pending() {
			l.plan(o, taken)
		}
	}
}

func (l *Line) plan(o Options, taken map[string]state.Op) {
	switch {
	case !l.Read:
		l.Set(engine.Failed, "the account could not be read for this record; run the same undo again")
	case l.Resource != state.ResourceLevel && l.RecordID == "":
		l.Set(engine.Skipped, fmt.Sprintf("the answer to the run's write of %s was lost, and its id is not known: look for it in the account", l.name()))
	case l.Op == state.OpArchive || l.Op == state.OpDelete:
		l.Set(engine.Skipped, l.notUndone())
	case taken[l.ParentID] != "" && l.Resource == state.ResourceVariant:
		l.withProduct(taken[l.ParentID], o)
	case taken[l.ParentID] == state.OpArchive && l.Resource == state.ResourceFile:
		l.Set(engine.Unchanged, "kept with its product, which is archived")
	case l.Gone:
		l.Set(engine.Skipped, fmt.Sprintf("%s is no longer in the account: there is nothing to take back", l.name()))
	case l.Op == state.OpCreate:
		l.planCreated(o)
	case l.tagsOnly():
		l.planTags(o)
	default:
		l.planFields(o)
	}
}

// notUndone says why what the run archived or deleted stays so.
func (l *Line) notUndone() string {
	switch {
	case l.Op == state.OpArchive:
		return fmt.Sprintf("the run archived %s, and the service has no way to unarchive a product: unarchive it in the account if it must be sold again", l.name())
	case l.Resource == state.ResourceFile:
		return fmt.Sprintf("the run deleted file %s of product %s, and the service has no way to bring back a deleted file: an import uploads its image anew", l.RecordID, l.ParentID)
	}
	return fmt.Sprintf("the run deleted %s, and the service has no way to bring back a deleted record: import it again to create it anew", l.name())
}

// withProduct settles a variant the run created under a product it
// created too, which the undo deletes (op) or archives: it goes with it.
func (l *Line) withProduct(op state.Op, o Options) {
	switch {
	case op == state.OpArchive:
		l.Set(engine.Unchanged, "kept with its product, which is archived")
	case o.DryRun:
		l.Set(engine.ToDelete, "with its product")
	default:
		l.Set(engine.Deleted, "with its product")
	}
}

// planCreated plans a record the run created: deleted (a product
// archived, with --archive), unless someone changed it since.
func (l *Line) planCreated(o Options) {
	var conflicts []string
	for _, f := range slices.Sorted(maps.Keys(l.After)) {
		if now, ok := l.Now[f]; ok && !l.same(f, now, l.After[f]) {
			conflicts = append(conflicts, fmt.Sprintf("%s is %s now; the run set %s", f, show(now), show(l.After[f])))
		}
	}
	if len(conflicts) > 0 && !o.Force {
		l.Set(engine.Conflict, fmt.Sprintf("%s changed since the run created it: %s; kept as it is (a forced undo deletes it)", l.name(), strings.Join(conflicts, ", ")))
		return
	}
	l.Undo = state.OpDelete
	if o.Archive && l.Resource == state.ResourceProduct {
		l.Undo = state.OpArchive
		if l.Now[importer.FieldArchived] == "1" {
			l.Undo = ""
			l.Set(engine.Unchanged, "archived already")
			return
		}
	}
	if o.DryRun {
		l.Set(map[state.Op]engine.Status{state.OpDelete: engine.ToDelete, state.OpArchive: engine.ToArchive}[l.Undo], "the run created it")
	}
}

// tagsOnly reports whether the line is a product's tags (load splits them
// from its other fields).
func (l *Line) tagsOnly() bool {
	_, ok := l.After[importer.FieldTags]
	return ok && len(l.After) == 1 && l.Op == state.OpUpdate
}

// planTags takes the tags the run added off the product's tags now and
// puts those it took off back: tags someone changed since stay as they
// are, so tags are no conflict.
func (l *Line) planTags(o Options) {
	f := importer.FieldTags
	before, after, now := tagSet(l.Before[f]), tagSet(l.After[f]), tagSet(l.Now[f])
	target := map[string]bool{}
	for t := range now {
		if !after[t] || before[t] {
			target[t] = true
		}
	}
	for t := range before {
		if !after[t] {
			target[t] = true
		}
	}
	want := strings.Join(slices.Sorted(maps.Keys(target)), "|")
	if want == l.Now[f] {
		l.Set(engine.Unchanged, "its tags are as they were before the run already")
		return
	}
	l.Restore, l.Undo = map[string]string{f: want}, state.OpUpdate
	if o.DryRun {
		l.Set(ToRestore, l.restoreText())
	}
}

// tagSet is a tag list as a run's changes write it ("a|b") as a set.
func tagSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range strings.Split(s, "|") {
		if t != "" {
			out[t] = true
		}
	}
	return out
}

// planFields sets back the fields that still hold the run's values,
// leaves those back as before already, and keeps (a conflict) those
// someone changed since, unless forced.
func (l *Line) planFields(o Options) {
	set, unknown, conflicts := map[string]string{}, []string{}, []string{}
	for _, f := range slices.Sorted(maps.Keys(l.After)) {
		before, known := l.Before[f]
		switch now := l.Now[f]; {
		case known && l.same(f, now, before):
		case !known:
			unknown = append(unknown, fmt.Sprintf("%s (%s now)", f, show(now)))
		case l.same(f, now, l.After[f]) || o.Force:
			set[f] = before
		default:
			conflicts = append(conflicts, fmt.Sprintf("%s is %s now; the run set %s; it was %s before", f, show(now), show(l.After[f]), show(before)))
		}
	}
	switch {
	case len(conflicts) > 0:
		l.Set(engine.Conflict, fmt.Sprintf("%s changed since the run: %s; kept as it is (a forced undo sets it back)", l.name(), strings.Join(conflicts, ", ")))
	case len(set) > 0:
		l.Restore, l.Undo = set, state.OpUpdate
		if o.DryRun {
			l.Set(ToRestore, l.restoreText())
		}
	case len(unknown) > 0:
		l.Set(engine.Skipped, fmt.Sprintf("the value %s had before the run is not known (it had none, or the run neither read it nor had set it before): %s; set it by hand if it must change", l.name(), strings.Join(unknown, ", ")))
	default:
		l.Set(engine.Unchanged, "as it was before the run already")
	}
}

// show is a value in a message: quoted when it is empty or holds spaces.
func show(v string) string {
	if v == "" || strings.ContainsAny(v, " \t") {
		return fmt.Sprintf("%q", v)
	}
	return v
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
		parts = append(parts, fmt.Sprintf("%s %s -> %s", f, show(l.Now[f]), show(l.Restore[f])))
	}
	return strings.Join(parts, ", ")
}
