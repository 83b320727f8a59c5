package importer

import (
	"fmt"

	"lading/engine"
	"lading/mapping"
)

// rule is what a product is planned by: the import's mode, or its rows'
// command (upsert, create or update) when they give one.
type rule struct {
	mode    Mode
	command mapping.Command
}

// ruleOf is the rule of a product whose rows' command is c: its mode,
// else the import's.
func (pl *Planner) ruleOf(c mapping.Command) rule {
	switch c {
	case mapping.CommandCreate:
		return rule{ModeCreateOnly, c}
	case mapping.CommandUpdate:
		return rule{ModeUpdateOnly, c}
	case mapping.CommandUpsert:
		return rule{ModeUpsert, c}
	}
	return rule{mode: pl.Mode}
}

// only says why a product or variant is only created, or only updated:
// "this import only creates what is new (mode create-only)", or "the
// command of its rows is create, which only creates what is new".
func (r rule) only() string {
	what := "creates what is new"
	if r.mode == ModeUpdateOnly {
		what = "updates what exists"
	}
	if r.command == mapping.CommandNone {
		return fmt.Sprintf("this import only %s (mode %s)", what, r.mode)
	}
	return fmt.Sprintf("the command of its rows is %s, which only %s", r.command, what)
}

// planArchive plans the archiving of pp's product, lp in the account:
// nothing when the account does not have it, or has it archived.
func (pl *Planner) planArchive(pp *ProductPlan, lp *LiveProduct) {
	if lp == nil {
		pp.nothingTo("archive")
		return
	}
	pp.Live = lp
	pp.set(engine.Archived, "")
	if lp.Archived {
		pp.set(engine.Unchanged, fmt.Sprintf("archived already (id %s)", lp.ID))
	}
	for _, vp := range pp.variants() {
		vp.Live = pp.matchVariant(vp, pl.Live)
		vp.set(pp.Action, "")
	}
}

// planDelete plans the deletion of pp's product, lp in the account, with
// its variants: nothing when the account does not have it.
func (pl *Planner) planDelete(pp *ProductPlan, lp *LiveProduct) {
	if lp == nil {
		pp.nothingTo("delete")
		return
	}
	pp.Live = lp
	pp.set(engine.Deleted, "")
	for _, vp := range pp.variants() {
		if vp.Live = pp.matchVariant(vp, pl.Live); vp.Live == nil {
			vp.gone(fmt.Sprintf("variant %s is not in the account: there is nothing to delete (its product is deleted)", vp.Key()))
			continue
		}
		vp.set(engine.Deleted, "deleted with its product")
	}
}

// nothingTo settles a product to archive or delete (what) that the
// account does not have.
func (pp *ProductPlan) nothingTo(what string) {
	pp.skip(fmt.Sprintf("%s is not in the account: there is nothing to %s", describeProduct(pp.P), what))
	pp.more().missing = true
}

// deletesAll makes the deletion of every variant the account holds of
// pp's product the deletion of the product: one write, and no product
// left without variants.
func (pp *ProductPlan) deletesAll() {
	if pp.Action != engine.Updated || len(pp.Changes()) > 0 || len(pp.Live.Variants) == 0 {
		return
	}
	deleted := map[*LiveVariant]bool{}
	for _, vp := range pp.variants() {
		switch {
		case vp.Action() == engine.Deleted:
			deleted[vp.Live] = true
		case vp.Action() == engine.Created || vp.Action() == engine.Updated:
			return
		}
	}
	for _, lv := range pp.Live.Variants {
		if !deleted[lv] {
			return
		}
	}
	pp.set(engine.Deleted, "its rows delete every variant it has in the account: the product is deleted with them")
	for _, vp := range pp.variants() {
		if vp.Action() == engine.Deleted {
			vp.set(engine.Deleted, pp.Reason())
		}
	}
}

// gone settles a variant to delete that the account does not have.
func (vp *VariantPlan) gone(reason string) {
	vp.set(engine.Skipped, reason)
	vp.more().missing = true
}

// missing reports whether the variant was to be deleted and the account
// does not have it.
func (vp *VariantPlan) missing() bool { return vp.why != nil && vp.why.missing }

// sentVariant is the variant at place n of the product's create
// (links.Variants), which leaves out the variants its rows delete; nil
// when there is none.
func (pp *ProductPlan) sentVariant(n int) *VariantPlan {
	for _, vp := range pp.variants() {
		if vp.V.Delete() {
			continue
		}
		if n == 0 {
			return vp
		}
		n--
	}
	return nil
}
