package undo

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/importer"
	"lading/state"
)

// Kinds of an undo's batches of catalog records in the state: each is
// one request of its own kind.
const (
	kindProducts = "undo.products"         // product edits and deletes
	kindVariants = "undo.variants"         // variant edits and deletes
	kindArchive  = "undo.products.archive" // a bulk archive
	kindUntag    = "undo.products.untag"   // a bulk untag of the same tags
	kindFiles    = "undo.files.delete"     // product files deleted
)

// catalogKinds are the kinds of catalog batches, in the order they are
// sent: files first, while their products, which the undo may delete, are
// there to find them by.
var catalogKinds = []string{kindFiles, kindProducts, kindVariants, kindArchive, kindUntag}

// sent is a catalog record an undo writes, as the state records it: what
// the look-up of a batch whose answer was lost compares.
type sent struct {
	Op       state.Op          `json:"op"`
	Resource string            `json:"resource"`
	ID       string            `json:"id"`
	Parent   string            `json:"parent,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
	// Untag says Fields' tags were taken off the product (kindUntag).
	Untag bool `json:"untag,omitempty"`
}

// kindOf is the kind of the batch that carries out what l's line does.
func (l *Line) kindOf() string {
	switch {
	case l.Resource == state.ResourceProduct && l.Undo == state.OpArchive:
		return kindArchive
	case l.Resource == state.ResourceProduct && l.tagsOnly() && l.Restore[importer.FieldTags] == "":
		return kindUntag
	case l.Resource == state.ResourceProduct:
		return kindProducts
	case l.Resource == state.ResourceVariant:
		return kindVariants
	}
	return kindFiles
}

// sentOf is what the undo writes to l's record.
func sentOf(l *Line) sent {
	s := sent{Op: l.Undo, Resource: l.Resource, ID: l.RecordID, Parent: l.ParentID, Fields: l.Restore}
	if l.kindOf() == kindUntag {
		s.Fields, s.Untag = map[string]string{importer.FieldTags: l.Now[importer.FieldTags]}, true // the tags taken off
	}
	return s
}

// catalogSender carries out the lines of kind within the undo's run; cat
// is the live catalog they were planned from (nil to resume).
func catalogSender(o Options, run *state.Run, cat *catalog, kind string) *engine.Sender[*Line, sent] {
	return &engine.Sender[*Line, sent]{
		State: o.State, Run: run, Kind: kind, Words: words,
		Size: wire.MaxWriteRecords, Parallel: o.Concurrency, Progress: o.Progress,
		Record: func(l *Line) (string, sent) { return l.Key, sentOf(l) },
		Change: undoChange,
		Write: func(ctx context.Context, b []*Line) (*api.WriteResult, error) {
			return cat.write(ctx, o.Client, kind, b)
		},
		Check: func(ctx context.Context, open []engine.Open[sent]) ([][]engine.Verdict, error) {
			return checkCatalog(ctx, o.Client, open)
		},
		Took:   func(l *Line, _ api.ID) { l.Set(doneStatus[l.Undo], l.doneText()) },
		Settle: func(l *Line, s engine.Status, msg string) { l.Set(s, msg) },
	}
}

// doneStatus is what a line says once the undo wrote it.
var doneStatus = map[state.Op]engine.Status{state.OpUpdate: Restored, state.OpDelete: engine.Deleted, state.OpArchive: engine.Archived}

// doneText says what the undo did to l's record.
func (l *Line) doneText() string {
	if l.Undo == state.OpUpdate {
		return l.restoreText()
	}
	return "the run created it"
}

// undoChange is what the undo writes to l's record, for its own history:
// an undo of the undo writes it back.
func undoChange(l *Line) *state.Change {
	c := &state.Change{Op: l.Undo, Resource: l.Resource, Key: l.Key, RecordID: l.RecordID, ParentID: l.ParentID}
	switch l.Undo {
	case state.OpUpdate:
		c.Before, c.After = map[string]string{}, l.Restore
		for f := range l.Restore {
			c.Before[f] = l.Now[f]
		}
	case state.OpDelete:
		c.Before = l.Now
	case state.OpArchive:
		c.Before, c.After = map[string]string{importer.FieldArchived: "0"}, map[string]string{importer.FieldArchived: "1"}
	}
	return c
}

// write sends one batch of kind.
func (cat *catalog) write(ctx context.Context, c *api.Client, kind string, b []*Line) (*api.WriteResult, error) {
	ids := make([]api.ID, len(b))
	for i, l := range b {
		ids[i] = api.ID(l.RecordID)
	}
	switch kind {
	case kindArchive:
		return c.Products.BulkArchive(ctx, ids)
	case kindFiles:
		return c.ProductFiles.Delete(ctx, ids...)
	case kindUntag:
		return c.Products.BulkUntag(ctx, ids, cat.tagIDs(b[0].Now[importer.FieldTags]))
	case kindProducts:
		recs := make([]api.ProductWrite, len(b))
		for i, l := range b {
			recs[i] = cat.productWrite(l)
		}
		return c.Products.Write(ctx, recs)
	}
	recs := make([]api.VariantWrite, len(b))
	for i, l := range b {
		recs[i] = cat.variantWrite(l)
	}
	return c.Variants.Write(ctx, recs)
}

// tagIDs are the ids of the tags of a list ("a|b") the live catalog
// knows.
func (cat *catalog) tagIDs(tags string) []api.ID {
	var out []api.ID
	for t := range tagSet(tags) {
		if id, ok := cat.live.TagIDs[t]; ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// productWrite is the record that deletes l's product, or sets its
// fields (and tags) back.
func (cat *catalog) productWrite(l *Line) api.ProductWrite {
	w := api.ProductWrite{ID: api.ID(l.RecordID)}
	if l.Undo == state.OpDelete {
		w.Delete = 1
		return w
	}
	for f, v := range l.Restore {
		if f != importer.FieldTags {
			_ = w.Set(f, v) // a run's changes name only writable fields
			continue
		}
		w.Links = &api.ProductLinks{}
		for _, t := range slices.Sorted(maps.Keys(tagSet(v))) {
			ref := api.TagRef{Name: t}
			if id, ok := cat.live.TagIDs[t]; ok {
				ref = api.TagRef{ID: id}
			}
			w.Links.ProductTags = append(w.Links.ProductTags, ref)
		}
	}
	return w
}

// variantWrite is the record that deletes l's variant, or sets its fields
// and prices back.
func (cat *catalog) variantWrite(l *Line) api.VariantWrite {
	w := api.VariantWrite{ID: api.ID(l.RecordID)}
	if l.Undo == state.OpDelete {
		w.Delete = 1
		return w
	}
	for _, f := range slices.Sorted(maps.Keys(l.Restore)) {
		v := l.Restore[f]
		tier, ok := strings.CutPrefix(f, importer.TierField(""))
		if !ok {
			_ = w.Set(f, v)
			continue
		}
		if w.Links == nil {
			w.Links = &api.VariantLinks{}
		}
		tv := api.TierValue{Name: tier, Value: v}
		if id, ok := cat.live.TierIDs[tier]; ok {
			tv = api.TierValue{ID: id, Value: v}
		}
		w.Links.PricingTiers = append(w.Links.PricingTiers, tv)
	}
	return w
}

// sendCatalog carries out the catalog lines the plan gave something to
// write, kind after kind; the tags to take off go in bulk, one request
// for the products that lose the same tags.
func sendCatalog(ctx context.Context, o Options, run *state.Run, cat *catalog, lines []Line) error {
	byKind := map[string][]*Line{}
	untag := map[string][]*Line{}
	for i := range lines {
		l := &lines[i]
		if !l.Pending() || l.Undo == "" || l.Resource == state.ResourceLevel {
			continue
		}
		if k := l.kindOf(); k == kindUntag {
			untag[l.Now[importer.FieldTags]] = append(untag[l.Now[importer.FieldTags]], l)
		} else {
			byKind[k] = append(byKind[k], l)
		}
	}
	for _, k := range catalogKinds {
		if err := catalogSender(o, run, cat, k).Send(ctx, byKind[k]); err != nil {
			return err
		}
	}
	for _, tags := range slices.Sorted(maps.Keys(untag)) {
		if err := catalogSender(o, run, cat, kindUntag).Send(ctx, untag[tags]); err != nil {
			return err
		}
	}
	return forgetFiles(ctx, o, lines)
}

// forgetFiles forgets, in the state, the product files the undo deleted:
// an import of the same file uploads them again.
func forgetFiles(ctx context.Context, o Options, lines []Line) error {
	var forget []state.FileKey
	for _, l := range lines {
		if l.Resource == state.ResourceFile && l.Action == engine.Deleted {
			forget = append(forget, state.FileKey{Product: l.ParentID, Place: l.Key})
		}
	}
	return o.State.PutFiles(context.WithoutCancel(ctx), state.KeyFiles(o.Scope), nil, forget)
}

// catalogRequests is how many writes the plan's catalog lines take.
func catalogRequests(lines []Line) int {
	n := map[string]int{}
	for i := range lines {
		l := &lines[i]
		if l.Undo == "" || l.Resource == state.ResourceLevel {
			continue
		}
		k := l.kindOf()
		if k == kindUntag {
			k += "|" + l.Now[importer.FieldTags]
		}
		n[k]++
	}
	total := 0
	for _, c := range n {
		total += (c + wire.MaxWriteRecords - 1) / wire.MaxWriteRecords
	}
	return total
}

// resumeCatalog checks the catalog batches an earlier attempt of the undo
// sent without an answer.
func resumeCatalog(ctx context.Context, o Options, run *state.Run) error {
	for _, k := range catalogKinds {
		if err := catalogSender(o, run, nil, k).Resume(ctx); err != nil {
			return err
		}
	}
	return nil
}

// checkCatalog reads back the records of batches that got no answer: a
// record the account holds as the undo wrote it was taken; the others go
// again.
func checkCatalog(ctx context.Context, c *api.Client, open []engine.Open[sent]) ([][]engine.Verdict, error) {
	var ids []api.ID
	for _, b := range open {
		for _, r := range b.Recs {
			ids = append(ids, map[bool]api.ID{true: api.ID(r.ID), false: api.ID(r.Parent)}[r.Resource == state.ResourceProduct])
		}
	}
	live, err := importer.FetchProducts(ctx, c, ids)
	if err != nil {
		return nil, fmt.Errorf("reading back what an undo sent: %w", err)
	}
	cat := &catalog{live: live, variants: map[api.ID]*importer.LiveVariant{}}
	for _, lp := range live.Products {
		for _, lv := range lp.Variants {
			cat.variants[lv.ID] = lv
		}
	}
	out := make([][]engine.Verdict, len(open))
	for k, b := range open {
		for _, r := range b.Recs {
			v := engine.Verdict{Kind: engine.Again}
			if cat.holds(r) {
				v = engine.Verdict{Kind: engine.Took}
			}
			out[k] = append(out[k], v)
		}
	}
	return out, nil
}

// holds reports whether the account holds what r wrote.
func (cat *catalog) holds(r sent) bool {
	l := &Line{Change: state.Change{Resource: r.Resource, RecordID: r.ID, ParentID: r.Parent, After: r.Fields}}
	cat.fill(l)
	switch {
	case r.Op == state.OpDelete:
		return l.Gone
	case l.Gone:
		return false
	case r.Op == state.OpArchive:
		return cat.live.Products[api.ID(r.ID)].Archived
	case r.Untag:
		// None of the tags it took off is left.
		now := tagSet(l.Now[importer.FieldTags])
		for t := range tagSet(r.Fields[importer.FieldTags]) {
			if now[t] {
				return false
			}
		}
		return true
	}
	for f, v := range r.Fields {
		if !l.same(f, l.Now[f], v) {
			return false
		}
	}
	return true
}
