package importer

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
	"lading/engine"
	"lading/internal/arena"
	"lading/mapping"
	"lading/mapping/cell"
)

// Mode says which writes an import may make.
type Mode string

// Modes.
const (
	ModeUpsert     Mode = "upsert"      // create what is new, update what changed
	ModeCreateOnly Mode = "create-only" // never update what exists
	ModeUpdateOnly Mode = "update-only" // never create; unknown keys are reported per row
)

// ParseMode checks a mode's name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeUpsert, ModeCreateOnly, ModeUpdateOnly:
		return m, nil
	case "":
		return ModeUpsert, nil
	}
	return "", fmt.Errorf("mode %q: want upsert, create-only or update-only", s)
}

// Change is one field that differs between the file and the service.
type Change struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

func (c Change) String() string { return fmt.Sprintf("%s %q → %q", c.Field, c.From, c.To) }

// VariantPlan is what an import does with one variant: a million-row
// import holds a million of them, of 32 bytes each.
type VariantPlan struct {
	V    *catalog.Variant
	Live *LiveVariant // nil when the variant is new
	// why holds the reason and the changes, which most variants (created
	// or unchanged) do not have: a million variants would carry 64 empty
	// bytes each.
	why *variantWhy
	// action is its action's number in statuses.
	action uint8
}

// statuses are the actions of plans, numbered; "" (none yet) is 0.
var statuses = []engine.Status{"", engine.Created, engine.Updated, engine.Unchanged, engine.Archived, engine.Deleted,
	engine.ToCreate, engine.ToUpdate, engine.ToArchive, engine.ToDelete, engine.Skipped, engine.Invalid, engine.Unknown,
	engine.Refused, engine.Failed, engine.Conflict}

// Action is what becomes of the variant.
func (vp *VariantPlan) Action() engine.Status { return statuses[vp.action] }

// setAction gives the variant action a, one of statuses.
func (vp *VariantPlan) setAction(a engine.Status) {
	i := slices.Index(statuses, a)
	if i < 0 {
		panic(fmt.Sprintf("importer: no plan has action %q", a))
	}
	vp.action = uint8(i)
}

type variantWhy struct {
	key     string // the key of a variant without SKU
	reason  string
	changes []Change
	tiers   []api.TierValue
	// missing says the variant was to be deleted and the account does
	// not have it.
	missing bool
}

// Key is what the variant is known by in the state and the plan file: its
// SKU, else its product's key and its option values.
func (vp *VariantPlan) Key() string {
	if sku := vp.V.SKU(); sku != "" || vp.why == nil {
		return sku
	}
	return vp.why.key
}

// Reason says why the variant was failed or skipped.
func (vp *VariantPlan) Reason() string {
	if vp.why == nil {
		return ""
	}
	return vp.why.reason
}

// Changes are the fields (and tier prices) an update changes.
func (vp *VariantPlan) Changes() []Change {
	if vp.why == nil {
		return nil
	}
	return vp.why.changes
}

// Tiers are the tiers whose prices changed, with their new values.
func (vp *VariantPlan) Tiers() []api.TierValue {
	if vp.why == nil {
		return nil
	}
	return vp.why.tiers
}

// set gives the variant an action and a reason.
func (vp *VariantPlan) set(a engine.Status, reason string) {
	vp.setAction(a)
	if reason != "" || vp.why != nil {
		w := vp.more()
		w.reason, w.missing = reason, false
	}
}

// setChanges replaces the variant's changes and changed tiers.
func (vp *VariantPlan) setChanges(cs []Change, tiers []api.TierValue) {
	if len(cs) > 0 || len(tiers) > 0 || vp.why != nil {
		w := vp.more()
		w.changes, w.tiers = cs, tiers
	}
}

func (vp *VariantPlan) more() *variantWhy {
	if vp.why == nil {
		vp.why = &variantWhy{}
	}
	return vp.why
}

// ProductPlan is what an import does with one product.
type ProductPlan struct {
	P      *catalog.Product
	Live   *LiveProduct // nil when the product is new
	Action engine.Status
	// vps are the plans of its variants (see variants), made when some
	// differ from the others or are written: a product found equal to
	// the account's, or created in a dry run, has none of its own (a
	// million variants' plans are 40 MB).
	vps []*VariantPlan
	// why holds the reason, the changes, the images and what a run
	// learns of a product it writes, which most products do not have
	// (see variantWhy).
	why *productWhy
	// plain, while vps is not made, is the action of every variant: its
	// number in statuses plus 1 (1: none yet); 0 once vps is made.
	plain uint8
	// skippedEqual says the product and every variant of it were found
	// equal to the account's before it was skipped (a strict import with
	// invalid rows sends nothing): an incremental import still marks it.
	skippedEqual bool
}

// foundEqual says the product and its variants were found equal to the
// account's: they are unchanged, or were until the product was skipped.
func (pp *ProductPlan) foundEqual() bool {
	return pp.Action == engine.Unchanged || pp.skippedEqual
}

// everyVariantUnchanged says the product is unchanged, each variant too.
func (pp *ProductPlan) everyVariantUnchanged() bool {
	if pp.Action != engine.Unchanged {
		return false
	}
	if pp.plain != 0 {
		return statuses[pp.plain-1] == engine.Unchanged
	}
	for _, vp := range pp.vps {
		if vp.Action() != engine.Unchanged {
			return false
		}
	}
	return true
}

// variants are the plans of pp's variants, made now if they were not:
// whoever changes one, or keeps it, calls it.
func (pp *ProductPlan) variants() []*VariantPlan {
	if pp.plain == 0 {
		return pp.vps
	}
	n := len(pp.P.Variants)
	vps, ptrs := make([]VariantPlan, n), make([]*VariantPlan, n)
	for i := range vps {
		pp.plainVariant(i, &vps[i])
		ptrs[i] = &vps[i]
	}
	pp.vps, pp.plain = ptrs, 0
	return pp.vps
}

// variant is the plan of variant j of pp, to read: while pp's plans are
// not made, it is made in tmp.
func (pp *ProductPlan) variant(j int, tmp *VariantPlan) *VariantPlan {
	if pp.plain == 0 {
		return pp.vps[j]
	}
	pp.plainVariant(j, tmp)
	return tmp
}

// plainVariant sets vp to the plan of variant j of pp, which has no plans
// of its own: its action is every variant's and, skipped or failed with
// the product, its reason the product's. The room vp had for a reason
// (a plan made here before) is reused.
func (pp *ProductPlan) plainVariant(j int, vp *VariantPlan) {
	v := &pp.P.Variants[j]
	why := vp.why
	*vp = VariantPlan{V: v, action: pp.plain - 1}
	key, reason := "", ""
	if v.SKU() == "" {
		key = pp.P.VariantKey(v)
	}
	if a := vp.Action(); a == engine.Skipped || a == engine.Failed {
		reason = pp.Reason()
	}
	if key == "" && reason == "" {
		return
	}
	if why == nil {
		why = &variantWhy{}
	}
	*why = variantWhy{key: key, reason: reason}
	vp.why = why
}

// setPlain gives every variant of pp action a, without plans of their own
// (variants makes them when asked).
func (pp *ProductPlan) setPlain(a engine.Status) {
	pp.vps, pp.plain = nil, uint8(slices.Index(statuses, a)+1)
}

type productWhy struct {
	// created is the id the service gave the product when this run
	// created it (Live stays nil: a snapshot of it would cost a million
	// rows' import tens of megabytes).
	created api.ID
	// missing says the product was to be archived or deleted and the
	// account does not have it.
	missing bool
	// images are what becomes of the images its rows name.
	images  []*ImagePlan
	reason  string
	changes []Change
	// tagsChanged says the product's tag set must be rewritten.
	tagsChanged bool
}

// Reason says why the product was failed or skipped.
func (pp *ProductPlan) Reason() string {
	if pp.why == nil {
		return ""
	}
	return pp.why.reason
}

// Changes are the product's fields (and tags) an update changes.
func (pp *ProductPlan) Changes() []Change {
	if pp.why == nil {
		return nil
	}
	return pp.why.changes
}

// Images are what becomes of the images its rows name.
func (pp *ProductPlan) Images() []*ImagePlan {
	if pp.why == nil {
		return nil
	}
	return pp.why.images
}

// setImages gives the product the plans of its images.
func (pp *ProductPlan) setImages(ips []*ImagePlan) {
	if len(ips) > 0 || pp.why != nil {
		pp.more().images = ips
	}
}

// TagsChanged says the product's tag set must be rewritten.
func (pp *ProductPlan) TagsChanged() bool { return pp.why != nil && pp.why.tagsChanged }

// set gives the product an action and a reason.
func (pp *ProductPlan) set(a engine.Status, reason string) {
	pp.Action = a
	if reason != "" || pp.why != nil {
		pp.more().reason = reason
	}
}

// setChanges replaces the product's changes.
func (pp *ProductPlan) setChanges(cs []Change, tagsChanged bool) {
	if len(cs) > 0 || tagsChanged || pp.why != nil {
		w := pp.more()
		w.changes, w.tagsChanged = cs, tagsChanged
	}
}

func (pp *ProductPlan) more() *productWhy {
	if pp.why == nil {
		pp.why = &productWhy{}
	}
	return pp.why
}

// ID is the product's id in the account: the live one, or the one it was
// created with; "" when it has none (yet).
func (pp *ProductPlan) ID() api.ID {
	if pp.Live != nil {
		return pp.Live.ID
	}
	if pp.why == nil {
		return ""
	}
	return pp.why.created
}

// missing says the product was to be archived or deleted and the account
// does not have it.
func (pp *ProductPlan) missing() bool { return pp.why != nil && pp.why.missing }

// Plan is the whole import, classified against the live catalog.
type Plan struct {
	Products []*ProductPlan
	Mode     Mode
	live     *Live
}

// Planner classifies products against the live catalog.
type Planner struct {
	Live *Live
	Mode Mode
	// RememberedIDs maps product keys to the ids earlier runs gave them.
	RememberedIDs map[string]string
	// Keep, when set, says which products keep their rows' variant data
	// once planned: the others' is let go as planning goes (see
	// catalog.Product.ReleaseData), a million rows' data being tens of
	// megabytes that nothing reads again. Nil keeps all.
	Keep func(*ProductPlan) bool
}

// writes says pp's plan writes something of its rows: what an import
// keeps the variant data of (Planner.Keep). A product planned unchanged,
// failed or skipped writes nothing.
func writes(pp *ProductPlan) bool {
	switch pp.Action {
	case engine.Unchanged, engine.Failed, engine.Skipped:
		return false
	}
	return true
}

// Plan classifies every product of in. Invalid products are planned as
// failed, with their errors.
func (pl *Planner) Plan(products []*catalog.Product) *Plan {
	plan := &Plan{Mode: pl.Mode, live: pl.Live, Products: make([]*ProductPlan, len(products))}
	var s planSlab
	// moved holds the data of the products kept, once the snapshot found
	// others equal, whose data goes: out of the chunks they share, the
	// few products kept would keep most chunks.
	var moved arena.Arena
	var skus arena.Arena // the SKUs of the products whose data goes
	for i, p := range products {
		pp := s.product(p, len(products)-i)
		if lp := pl.Live.sameProduct(i, p); lp != nil {
			pp.unchanged(lp)
		} else {
			if pl.Keep != nil && pl.Live.same != nil {
				p.MoveData(&moved)
			}
			pl.planProduct(pp)
		}
		if pl.Keep != nil && !pl.Keep(pp) {
			p.ReleaseData(&skus)
		}
		plan.Products[i] = pp
	}
	return plan
}

// planSlab holds the product plans of an input in a few large
// allocations, slabChunk at a time as planning goes: a million variants'
// products cost their plans anyway, and as small objects they would cost
// the allocator and the garbage collector more. Every plan keeps its own
// address. The plans of their variants are made only where they differ
// (ProductPlan.variants).
type planSlab struct {
	products []ProductPlan
}

// slabChunk is how many product plans one allocation of a planSlab
// holds.
const slabChunk = 4096

// product returns the next product plan, for p, its variants' plans not
// made; left is how many products are left to plan, p's included.
func (s *planSlab) product(p *catalog.Product, left int) *ProductPlan {
	if len(s.products) == 0 {
		s.products = make([]ProductPlan, min(left, slabChunk))
	}
	pp := &s.products[0]
	s.products = s.products[1:]
	*pp = ProductPlan{P: p, plain: 1}
	return pp
}

func (pl *Planner) findProduct(p *catalog.Product) (*LiveProduct, string) {
	var found *LiveProduct
	for _, sku := range p.SKUs() {
		lv := pl.Live.BySKU[sku]
		if lv == nil {
			continue
		}
		lp := pl.Live.Products[lv.ProductID()]
		if found != nil && lp != found {
			return nil, fmt.Sprintf("its SKUs belong to different products in the account (ids %s and %s): fix the file's grouping or merge them in the account", found.ID, lp.ID)
		}
		found = lp
	}
	if found != nil {
		return found, ""
	}
	if id, ok := pl.RememberedIDs[p.Key]; ok {
		if lp := pl.Live.Products[api.ID(id)]; lp != nil {
			return lp, ""
		}
	}
	// A product is identified by its variants' SKUs; by name only when it
	// has none.
	if p.Name().Set && len(p.SKUs()) == 0 {
		switch byName := pl.Live.ByName(p.Name().S); len(byName) {
		case 0:
		case 1:
			return byName[0], ""
		default:
			ids := make([]string, len(byName))
			for i, lp := range byName {
				ids[i] = string(lp.ID)
			}
			return nil, fmt.Sprintf("%d products are named %q in the account (ids %s): give the variants SKUs to tell them apart", len(byName), p.Name().S, strings.Join(ids, ", "))
		}
	}
	return nil, ""
}

// planProduct classifies pp's product and its variants, by its rows'
// command, else by the import's mode.
func (pl *Planner) planProduct(pp *ProductPlan) *ProductPlan {
	p := pp.P
	if !p.Valid() {
		pp.fail(invalidReason(p))
		return pp
	}
	if p.Command() == mapping.CommandSkip {
		pp.skip("its command is skip: left as it is")
		return pp
	}
	lp, problem := pl.findProduct(p)
	if problem != "" {
		pp.fail(problem)
		return pp
	}
	switch p.Command() {
	case mapping.CommandArchive:
		pl.planArchive(pp, lp)
		return pp
	case mapping.CommandDelete:
		pl.planDelete(pp, lp)
		return pp
	}
	r := pl.ruleOf(p.Command())
	if lp == nil {
		pl.planNew(pp, r)
		return pp
	}
	pp.Live = lp
	pp.diffProduct()
	for _, vp := range pp.variants() {
		pl.planVariant(pp, vp, r)
	}
	pp.Action = engine.Unchanged
	if len(pp.Changes()) > 0 || pp.TagsChanged() {
		pp.Action = engine.Updated
	}
	if pp.Action == engine.Updated && r.mode == ModeCreateOnly {
		pp.set(engine.Skipped, fmt.Sprintf("exists in the account (id %s), and %s", lp.ID, r.only()))
		pp.setChanges(nil, false)
	}
	for _, vp := range pp.variants() {
		if vp.Action() == engine.Created || vp.Action() == engine.Updated || vp.Action() == engine.Deleted {
			if pp.Action == engine.Unchanged {
				pp.Action = engine.Updated
			}
		}
	}
	pp.deletesAll()
	return pp
}

// unchanged plans pp as found equal to lp, which keeps the ids of its
// variants (see variantID); they have no plans of their own.
func (pp *ProductPlan) unchanged(lp *LiveProduct) {
	pp.Live, pp.Action = lp, engine.Unchanged
	pp.setPlain(engine.Unchanged)
}

// variantID is the id in the account of variant j of pp, and whether the
// account has it: its Live's, or for a product the snapshot found equal
// to the file's, the one its live product keeps.
func (pp *ProductPlan) variantID(j int) (api.ID, bool) { return pp.variantIDIn(j, nil) }

// variantIDIn is variantID, an id made in a when a is not nil
// (idPack.atIn).
func (pp *ProductPlan) variantIDIn(j int, a *arena.Arena) (api.ID, bool) {
	if pp.plain == 0 && pp.vps[j].Live != nil {
		return pp.vps[j].Live.ID, true
	}
	if pp.Live != nil {
		return pp.Live.sameVariant(j, a)
	}
	return "", false
}

// planNew plans a product the account does not have: created with its
// variants, but for those its rows delete (there is nothing to delete).
func (pl *Planner) planNew(pp *ProductPlan, r rule) {
	p := pp.P
	if r.mode == ModeUpdateOnly {
		pp.skip(fmt.Sprintf("%s is not in the account, and %s", describeProduct(p), r.only()))
		return
	}
	pp.Action = engine.Created
	if len(p.Variants) > 0 && !slices.ContainsFunc(p.Variants, func(v catalog.Variant) bool { return v.SKU() == "" || v.Delete() }) {
		pp.setPlain(engine.Created) // every variant created, as most are
		return
	}
	created := 0
	for _, vp := range pp.variants() {
		if vp.V.Delete() {
			vp.gone(fmt.Sprintf("variant %s is not in the account: there is nothing to delete", vp.Key()))
			continue
		}
		vp.setAction(engine.Created)
		created++
	}
	if created == 0 && len(pp.variants()) > 0 {
		pp.set(engine.Skipped, fmt.Sprintf("%s is not in the account: there is nothing to delete", describeProduct(p)))
	}
}

// fail fails the product and every variant of it for reason.
func (pp *ProductPlan) fail(reason string) { pp.setWhole(engine.Failed, reason) }

// skip skips the product and every variant of it for reason.
func (pp *ProductPlan) skip(reason string) {
	pp.skippedEqual = pp.everyVariantUnchanged()
	pp.setWhole(engine.Skipped, reason)
}

// setWhole gives the product and every variant of it action a (failed or
// skipped) for reason: variants without plans of their own are left
// without (plainVariant gives them the product's reason), so that
// skipping a million costs nothing.
func (pp *ProductPlan) setWhole(a engine.Status, reason string) {
	pp.set(a, reason)
	if pp.plain != 0 {
		pp.setPlain(a)
		return
	}
	for _, vp := range pp.vps {
		vp.set(a, reason)
	}
}

func describeProduct(p *catalog.Product) string {
	if skus := p.SKUs(); len(skus) > 0 {
		return fmt.Sprintf("product %q (SKU %s)", p.Key, skus[0])
	}
	return fmt.Sprintf("product %q", p.Key)
}

func invalidReason(p *catalog.Product) string {
	if len(p.Errs()) == 1 {
		return "not written: " + p.Errs()[0].Error()
	}
	return fmt.Sprintf("not written: %d invalid values in this product's rows, first: %s", len(p.Errs()), p.Errs()[0].Error())
}

func (pp *ProductPlan) diffProduct() {
	pp.setChanges(productChanges(pp.P, pp.Live.LiveText))
}

// productChanges lists the product fields and tags of p that differ from
// those of lp.
func productChanges(p *catalog.Product, lp *LiveText) (changes []Change, tagsChanged bool) {
	for _, f := range []struct {
		name string
		v    catalog.Value
		live string
	}{{"name", p.Name(), lp.Name}, {"description", p.Description(), lp.Description}, {"notes", p.Notes(), lp.Notes}} {
		if f.v.Set && f.v.S != f.live {
			changes = append(changes, Change{Field: f.name, From: f.live, To: f.v.S})
		}
	}
	if p.TagsSet() {
		want := normTags(p.Tags())
		if !slices.Equal(want, lp.Tags) {
			tagsChanged = true
			changes = append(changes, Change{Field: "tags", From: strings.Join(lp.Tags, "|"), To: strings.Join(want, "|")})
		}
	}
	return changes, tagsChanged
}

func normTags(tags []string) []string {
	out := dedupe(tags)
	sort.Strings(out)
	return out
}

// matchVariant finds the live variant of vp: by SKU, else by option values
// within the live product.
func (pp *ProductPlan) matchVariant(vp *VariantPlan, live *Live) *LiveVariant {
	if sku := vp.V.SKU(); sku != "" {
		if lv := live.BySKU[sku]; lv != nil && lv.ProductID() == pp.Live.ID {
			return lv
		}
		return nil
	}
	want := optionKey(pp.P.Attributes(), pp.P.OptionValues(vp.V))
	for _, lv := range pp.Live.Variants {
		if lv.SKU() != "" {
			continue
		}
		if liveOptionKey(lv) == want {
			return lv
		}
	}
	return nil
}

func optionKey(attrs, values []string) string {
	var parts []string
	for i, a := range attrs {
		if i < len(values) && values[i] != "" {
			parts = append(parts, strings.ToLower(a)+"="+values[i])
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func liveOptionKey(lv *LiveVariant) string {
	parts := make([]string, 0, len(lv.Options()))
	for _, o := range lv.Options() {
		parts = append(parts, strings.ToLower(o.Attribute)+"="+o.Value)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// optionConflicts says how the file's options of a variant differ from
// its live options ("" when they agree): an attribute whose value differs,
// or one the live variant lacks. Attributes the file leaves empty are not
// compared (an empty cell never erases).
func optionConflicts(attrs, values []string, lv *LiveVariant) string {
	var diffs []string
	for i, a := range attrs {
		if i >= len(values) || values[i] == "" {
			continue
		}
		have, found := "", false
		for _, o := range lv.Options() {
			if strings.EqualFold(o.Attribute, a) {
				have, found = o.Value, true
				break
			}
		}
		switch {
		case !found:
			diffs = append(diffs, fmt.Sprintf("%s %q is new", a, values[i]))
		case have != values[i]:
			diffs = append(diffs, fmt.Sprintf("%s %q in the account, %q in the file", a, have, values[i]))
		}
	}
	return strings.Join(diffs, "; ")
}

func (pl *Planner) planVariant(pp *ProductPlan, vp *VariantPlan, r rule) {
	lv := pp.matchVariant(vp, pl.Live)
	if lv == nil {
		sku := vp.V.SKU()
		switch {
		case sku != "" && pl.Live.BySKU[sku] != nil:
			vp.set(engine.Failed, fmt.Sprintf("SKU %s belongs to product %s in the account, not to %s", sku, pl.Live.BySKU[sku].ProductID(), pp.Live.ID))
		case vp.V.Delete():
			vp.gone(fmt.Sprintf("variant %s is not in the account: there is nothing to delete", vp.Key()))
		case r.mode == ModeUpdateOnly:
			vp.set(engine.Skipped, fmt.Sprintf("variant %s is not in the account, and %s", vp.Key(), r.only()))
		default:
			vp.setAction(engine.Created)
		}
		return
	}
	vp.Live = lv
	if vp.V.Delete() {
		vp.setAction(engine.Deleted)
		return
	}
	differ, changes, tiers := compareVariant(pp.P, vp.V, lv, pl.Live.TierIDs)
	if differ != "" {
		vp.set(engine.Failed, fmt.Sprintf("its options differ from the account's variant %s (%s), and the service cannot change an existing variant's options: change them in the account, or give this row a new SKU to create a variant with these options", lv.ID, differ))
		return
	}
	vp.setAction(engine.Unchanged)
	vp.setChanges(changes, tiers)
	if len(changes) > 0 {
		vp.setAction(engine.Updated)
		if r.mode == ModeCreateOnly {
			vp.set(engine.Skipped, fmt.Sprintf("variant %s exists in the account (id %s), and %s", vp.Key(), lv.ID, r.only()))
			vp.setChanges(nil, nil)
		}
	}
}

// compareVariant compares v, a variant of p, with lv: differ says how
// their options differ ("" when they agree), changes lists the fields and
// tier prices of v that differ from lv's, and tiers the changed prices as
// a write gives them (by the tier's id where tierIDs knows it).
func compareVariant(p *catalog.Product, v *catalog.Variant, lv *LiveVariant, tierIDs map[string]api.ID) (differ string, changes []Change, tiers []api.TierValue) {
	var values [8]string // most products have fewer attributes
	if differ = optionConflicts(p.Attributes(), p.AppendOptionValues(values[:0], v), lv); differ != "" {
		return differ, nil, nil
	}
	for name, value := range v.AllFields() {
		if name == "sku" {
			continue
		}
		if have := lv.Field(name); !sameValue(slices.Contains(wire.NumericVariantFields, name), have, value) {
			changes = append(changes, Change{Field: name, From: have, To: value})
		}
	}
	for name, value := range v.AllTiers() {
		have, ok := lv.Price(name)
		if !ok || !sameValue(true, have, value) {
			changes = append(changes, Change{Field: TierField(name), From: have, To: value})
			tv := api.TierValue{Name: name, Value: value}
			if id, ok := tierIDs[name]; ok {
				tv = api.TierValue{ID: id, Value: value}
			}
			tiers = append(tiers, tv)
		}
	}
	return "", changes, tiers
}

// TierField is how a change names a price in pricing tier name: "tier
// Retail".
func TierField(name string) string { return "tier " + name }

// SameValue reports whether the live value of a variant's field (or its
// price in a tier, TierField) is value, as an import compares them:
// numbers and prices by value, every other field as text.
func SameValue(field, live, value string) bool {
	numeric := slices.Contains(wire.NumericVariantFields, field) || strings.HasPrefix(field, TierField(""))
	return sameValue(numeric, live, value)
}

// sameValue compares a live value with the file's value by the field's
// kind: numeric fields and prices by value ("1.50" equals "1.5 "), every
// other field as text, so that an identifier that lost its leading zero in
// the account ("12345678905" for UPC "012345678905") is repaired.
func sameValue(numeric bool, live, file string) bool {
	if live == file {
		return true
	}
	if !numeric {
		return false
	}
	a, okA := cell.ParseNumber(live, '.')
	b, okB := cell.ParseNumber(file, '.')
	return okA && okB && a == b
}

// Summary counts the plan's products and variants by action.
func (p *Plan) Summary() (products, variants engine.Counts) {
	products, variants = engine.Counts{}, engine.Counts{}
	for _, pp := range p.Products {
		products[pp.Action]++
		if pp.plain != 0 {
			variants[statuses[pp.plain-1]] += len(pp.P.Variants)
			continue
		}
		for _, vp := range pp.vps {
			variants[vp.Action()]++
		}
	}
	return products, variants
}
