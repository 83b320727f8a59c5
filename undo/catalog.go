package undo

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"lading/api"
	"lading/importer"
	"lading/state"
)

// catalog is the part of the live catalog an undo's lines name: their
// products in full, read in the fewest requests (importer.FetchLive).
type catalog struct {
	live     *importer.Live
	variants map[api.ID]*importer.LiveVariant
}

// readCatalog reads the products, variants and files the pending lines
// name, and fills in each line's values now.
func readCatalog(ctx context.Context, c *api.Client, lines []Line) (*catalog, error) {
	var ids []api.ID
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Resource != state.ResourceLevel {
			ids = append(ids, l.product())
		}
	}
	cat := &catalog{variants: map[api.ID]*importer.LiveVariant{}}
	if len(ids) == 0 {
		return cat, nil
	}
	live, err := importer.FetchProducts(ctx, c, ids)
	if err != nil {
		return nil, fmt.Errorf("reading the products the run wrote: %w", err)
	}
	cat.live = live
	for _, lp := range live.Products {
		for _, lv := range lp.Variants {
			cat.variants[lv.ID] = lv
		}
	}
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.Resource != state.ResourceLevel {
			cat.fill(l)
		}
	}
	return cat, nil
}

// product is the id of the product a catalog line writes, or whose
// variant or file it writes.
func (l *Line) product() api.ID {
	if l.Resource == state.ResourceProduct {
		return api.ID(l.RecordID)
	}
	return api.ID(l.ParentID)
}

// fill sets l's values now: the fields its change names, as the account
// holds them; Gone when the account no longer has its record.
func (cat *catalog) fill(l *Line) {
	l.Read = true
	lp := cat.live.Products[l.product()]
	switch l.Resource {
	case state.ResourceProduct:
		l.Gone = lp == nil
		if lp != nil {
			l.Now = values(l.Change, func(f string) (string, bool) { return productValue(lp, f) })
			l.Now[importer.FieldArchived], _ = productValue(lp, importer.FieldArchived)
		}
	case state.ResourceVariant:
		lv := cat.variants[api.ID(l.RecordID)]
		l.Gone = lv == nil
		if lv != nil {
			l.Now = values(l.Change, func(f string) (string, bool) { return variantValue(lv, f) })
		}
	case state.ResourceFile:
		l.Gone = lp == nil || (lp.FilesKnown && !slices.Contains(lp.FileIDs, api.ID(l.RecordID)))
	}
}

// values are the fields c names (before or after), by get; a field get
// does not know (a price in a tier the variant has none in) is absent.
func values(c state.Change, get func(string) (string, bool)) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{c.Before, c.After} {
		for f := range m {
			if v, ok := get(f); ok {
				out[f] = v
			}
		}
	}
	return out
}

// productValue is field f of a live product, as a run's changes write it.
func productValue(lp *importer.LiveProduct, f string) (string, bool) {
	switch f {
	case "name":
		return lp.Name, true
	case "description":
		return lp.Description, true
	case "notes":
		return lp.Notes, true
	case importer.FieldTags:
		return strings.Join(lp.Tags, "|"), true
	case importer.FieldArchived:
		return map[bool]string{true: "1", false: "0"}[lp.Archived], true
	}
	return "", false
}

// variantValue is field f of a live variant: a writable field, or its
// price in a tier ("tier NAME").
func variantValue(lv *importer.LiveVariant, f string) (string, bool) {
	if tier, ok := strings.CutPrefix(f, importer.TierField("")); ok {
		return lv.Price(tier)
	}
	return lv.Field(f), true
}

// same reports whether a value now of field f of l's record is v: numbers
// and prices by value.
func (l *Line) same(f, now, v string) bool {
	if l.Resource == state.ResourceLevel {
		return now == v
	}
	return importer.SameValue(f, now, v)
}
