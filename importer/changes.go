package importer

import (
	"strings"

	"lading/catalog"
	"lading/state"
)

// Fields of a run's changes beside the products' and variants' own: a
// product's tags (its sorted tag list, joined by "|") and whether it is
// archived ("1"). A price is "tier NAME" (TierField).
const (
	FieldTags     = "tags"
	FieldArchived = "archived"
)

// change is what r writes, for the run's history and its undo: the
// fields it sets, with their values before where it changes a record; seq
// is its place in its batch. A create's id is learned from the answer.
func (r *record) change(seq int) state.Change {
	pp, vp := r.pp, r.vp
	c := state.Change{Seq: seq, Key: r.key(), Resource: state.ResourceProduct}
	if vp != nil {
		c.Resource, c.ParentID = state.ResourceVariant, string(pp.ID())
		if vp.Live != nil {
			c.RecordID = string(vp.Live.ID)
		}
	} else if pp.Live != nil {
		c.RecordID = string(pp.Live.ID)
	}
	switch r.kind {
	case kindProductCreate:
		c.Op, c.After = state.OpCreate, createdProduct(pp.P)
	case kindVariantCreate:
		c.Op, c.After = state.OpCreate, createdVariant(vp.V)
	case kindProductUpdate:
		c.Op = state.OpUpdate
		c.Before, c.After = beforeAfter(pp.Changes())
	case kindVariantUpdate:
		c.Op = state.OpUpdate
		c.Before, c.After = beforeAfter(vp.Changes())
	case kindProductArchive:
		c.Op, c.Before, c.After = state.OpArchive, map[string]string{FieldArchived: "0"}, map[string]string{FieldArchived: "1"}
	case kindProductDelete:
		c.Op, c.Before = state.OpDelete, map[string]string{"name": pp.Live.Name}
	case kindVariantDelete:
		c.Op, c.Before = state.OpDelete, map[string]string{"sku": vp.Live.SKU()}
	}
	return c
}

// createdProduct are the fields a product create sets, its tags as the
// sorted list joined by "|".
func createdProduct(p *catalog.Product) map[string]string {
	out := map[string]string{}
	for _, f := range []struct {
		name string
		v    catalog.Value
	}{{"name", p.Name()}, {"description", p.Description()}, {"notes", p.Notes()}} {
		if f.v.Set {
			out[f.name] = f.v.S
		}
	}
	if p.TagsSet() {
		out[FieldTags] = strings.Join(normTags(p.Tags()), "|")
	}
	return out
}

// createdVariant are the fields a variant create sets: its SKU, fields
// and tier prices.
func createdVariant(v *catalog.Variant) map[string]string {
	out := map[string]string{}
	if sku := v.SKU(); sku != "" {
		out["sku"] = sku
	}
	for _, f := range v.Fields() {
		out[f.Name] = f.Value
	}
	for _, t := range v.Tiers() {
		out[TierField(t.Name)] = t.Value
	}
	return out
}

// beforeAfter are an update's changed fields with their values before
// and after. A price the variant did not have before has no value
// before.
func beforeAfter(cs []Change) (before, after map[string]string) {
	before, after = make(map[string]string, len(cs)), make(map[string]string, len(cs))
	for _, c := range cs {
		after[c.Field] = c.To
		if c.From != "" || !strings.HasPrefix(c.Field, TierField("")) {
			before[c.Field] = c.From
		}
	}
	return before, after
}
