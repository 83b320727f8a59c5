package stock

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/state"
)

// ErrWarehouse is returned (wrapped) when a push cannot tell which
// warehouse the levels go to: the token's warehouse is not known and
// cannot be found, or the account has several and none was named.
var ErrWarehouse = errors.New("warehouse not known")

// warehouseScope is where a push remembers an account's warehouses (id →
// label), and under tokenKey the token's own.
func warehouseScope(account string) string { return state.KeyWarehouses(account) }

const tokenKey = "\x00token"

// levelScope is where the levels pushed and confirmed in a warehouse of an
// account are remembered, by variant id.
func levelScope(account string, warehouse api.ID) string {
	return state.KeyLevels(account, string(warehouse))
}

// placed is the outcome of resolving: the facts learned, and the rows to
// push in each warehouse (indexes into the input's lines, one per SKU).
type placed struct {
	facts  *facts
	groups map[api.ID]toPush
}

// resolve finds each valid row's variant and warehouse: from the state's
// memory, then with the fewest reads. Rows it cannot place are settled
// (Unknown, Invalid); rows repeating a SKU follow its first row, or are
// all Invalid when their quantities differ.
func (p *Pusher) resolve(ctx context.Context, lines []Line) (*placed, error) {
	f, err := p.remembered(ctx, lines)
	if err != nil {
		return nil, err
	}
	token := f.warehouses[tokenKey]
	delete(f.warehouses, tokenKey)
	// Before any read when the warehouses are known: a push locked out
	// spends nothing.
	if err := p.holdAll(p.knownWarehouses(lines, f, api.ID(token))); err != nil {
		return nil, err
	}
	r := &reader{c: p.Opts.Client, f: f}
	if err := p.read(ctx, r, lines, api.ID(token)); err != nil {
		return nil, err
	}
	def, err := p.defaultWarehouse(ctx, r, lines, api.ID(token))
	if err != nil {
		return nil, err
	}
	changed := learned(lines, f)
	if err := p.placeWarehouses(ctx, r, lines, def); err != nil {
		return nil, err
	}
	if err := p.remember(ctx, f, changed, def, api.ID(token)); err != nil {
		return nil, err
	}
	return &placed{facts: f, groups: groupLines(lines)}, nil
}

// read reads what the state does not know: the whole listing when
// verifying, else the SKUs it has no id for (and probes for the token's
// warehouse).
func (p *Pusher) read(ctx context.Context, r *reader, lines []Line, token api.ID) error {
	if p.Opts.Verify {
		return p.readAll(ctx, r, lines)
	}
	unknown, probes := p.lookUps(lines, token)
	return r.lookUp(ctx, unknown, probes)
}

// readAll reads the whole listing, with the live levels, and forgets the
// remembered ids of SKUs it does not show: they are no longer in the
// account (deleted, or renamed).
func (p *Pusher) readAll(ctx context.Context, r *reader, lines []Line) error {
	r.f.keepLevels = true
	listed := map[string]bool{}
	r.f.onSKU = func(sku string) { listed[sku] = true }
	defer func() { r.f.onSKU = nil }()
	if err := r.listAll(ctx); err != nil {
		return err
	}
	r.f.listedAll = true
	var gone []string
	for i := range lines {
		if l := &lines[i]; l.VariantID != "" && !listed[l.SKU] {
			listed[l.SKU] = true // once
			gone = append(gone, l.SKU)
		}
	}
	return p.Opts.State.DeleteIDs(ctx, state.KeySKUs(p.Opts.Scope), gone)
}

// remembered loads what the state knows: the ids of the file's SKUs (on
// their rows, as VariantID), the account's warehouses and the token's.
func (p *Pusher) remembered(ctx context.Context, lines []Line) (*facts, error) {
	f := newFacts()
	f.lines = lines
	if err := p.rememberedIDs(ctx, lines); err != nil {
		return nil, err
	}
	whs, err := p.Opts.State.AllIDs(ctx, warehouseScope(p.Opts.Scope))
	if err != nil {
		return nil, err
	}
	f.stored = whs
	for k, v := range whs {
		if k == tokenKey {
			f.warehouses[tokenKey] = v
		} else {
			f.warehouses[api.ID(k)] = v
		}
	}
	return f, nil
}

// knownWarehouses are the warehouses of the pending rows as the state
// knows them, or none when a row's warehouse is not known yet.
func (p *Pusher) knownWarehouses(lines []Line, f *facts, token api.ID) []api.ID {
	def := api.ID(p.Opts.Warehouse)
	if def == "" {
		def = token
	}
	set := map[api.ID]bool{}
	var last api.ID // most rows name the warehouse the row before named
	for i := range lines {
		l := &lines[i]
		if !l.Pending() {
			continue
		}
		id, ok := def, def != ""
		if l.Warehouse != "" {
			id, ok = f.warehouseNamed(l.Warehouse)
		}
		if !ok {
			return nil
		}
		if id != last || len(set) == 0 {
			set[id], last = true, id
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// manySKUs is how many SKUs a file holds from which reading the whole
// cache in one pass beats looking them up 500 at a time.
const manySKUs = 5000

// rememberedIDs gives the pending rows the remembered variant ids of
// their SKUs (VariantID), when the state has one.
func (p *Pusher) rememberedIDs(ctx context.Context, lines []Line) error {
	scope := state.KeySKUs(p.Opts.Scope)
	rows := make([]int, 0, len(lines))
	for i := range lines {
		if l := &lines[i]; l.Pending() && l.SKU != "" {
			rows = append(rows, i)
		}
	}
	if len(rows) >= manySKUs {
		m := newMatcher(rows, func(i int) string { return lines[i].SKU })
		return p.Opts.State.EachID(ctx, scope, func(k, id []byte) {
			var v api.ID
			m.each(k, func(j int) {
				if v == "" {
					v = api.ID(id)
				}
				lines[rows[j]].VariantID = v
			})
		})
	}
	skus := make([]string, len(rows))
	for j, i := range rows {
		skus[j] = lines[i].SKU
	}
	slices.Sort(skus)
	ids, err := p.Opts.State.IDs(ctx, scope, slices.Compact(skus))
	for _, i := range rows {
		lines[i].VariantID = api.ID(ids[lines[i].SKU])
	}
	return err
}

// warehouseProbe is how many known SKUs a look-up adds, when the token's
// warehouse is not known yet, for the warehouses their levels name.
const warehouseProbe = 10

// lookUps are the SKUs of pending rows with no remembered id. When the
// token's warehouse is to be found, a few remembered SKUs (probes) are
// added where the look-up's last request has room: their stock levels
// name it, at no extra request.
func (p *Pusher) lookUps(lines []Line, token api.ID) (unknown, probes []string) {
	var known []string
	seen := map[string]bool{} // of the unknown SKUs: the known are most, and need none
	for i := range lines {
		l := &lines[i]
		switch {
		case !l.Pending():
		case l.VariantID == "":
			if !seen[l.SKU] {
				seen[l.SKU] = true
				unknown = append(unknown, l.SKU)
			}
		case len(known) < warehouseProbe && !slices.Contains(known, l.SKU):
			known = append(known, l.SKU)
		}
	}
	if len(unknown) == 0 || token != "" || p.Opts.Warehouse != "" {
		return unknown, nil
	}
	room := pages(len(unknown))*wire.MaxPageSize - len(unknown)
	return unknown, known[:min(room, len(known))]
}

// defaultWarehouse is where rows that name none go: the one the caller
// named, else the token's, remembered or found as the only warehouse the
// account's stock levels show. It is "" when every row names its own.
func (p *Pusher) defaultWarehouse(ctx context.Context, r *reader, lines []Line, token api.ID) (api.ID, error) {
	switch {
	case p.Opts.Warehouse != "":
		return api.ID(p.Opts.Warehouse), nil
	case token != "":
		return token, nil
	case !slices.ContainsFunc(lines, func(l Line) bool { return l.Pending() && l.Warehouse == "" }):
		return "", nil
	}
	if len(r.f.warehouses) == 0 {
		if err := r.firstListingPage(ctx); err != nil {
			return "", err
		}
	}
	switch len(r.f.warehouses) {
	case 1:
		for id := range r.f.warehouses {
			return id, nil
		}
	case 0:
		return "", fmt.Errorf("%w: no stock level of the account names a warehouse yet, so lading cannot tell which is this access token's; name the warehouse's id", ErrWarehouse)
	}
	return "", fmt.Errorf("%w: the account has several warehouses (%s) and lading cannot tell which is this access token's; name the one to push to", ErrWarehouse, r.f.warehouseList())
}

// placeWarehouses gives each pending row its warehouse and variant, or
// settles it: an unknown SKU, a warehouse the account does not have.
func (p *Pusher) placeWarehouses(ctx context.Context, r *reader, lines []Line, def api.ID) error {
	unmatched := func(l *Line) bool {
		if !l.Pending() || l.Warehouse == "" {
			return false
		}
		_, ok := r.f.warehouseNamed(l.Warehouse)
		return !ok
	}
	if slices.ContainsFunc(lines, func(l Line) bool { return unmatched(&l) }) {
		if err := r.firstListingPage(ctx); err != nil {
			return err
		}
	}
	for i := range lines {
		l := &lines[i]
		if !l.Pending() {
			continue
		}
		if l.Warehouse == "" {
			l.WarehouseID = def
		} else if id, ok := r.f.warehouseNamed(l.Warehouse); ok {
			l.WarehouseID = id
		} else {
			l.Set(engine.Invalid, fmt.Sprintf("warehouse %q is not a warehouse of this account (its warehouses: %s); correct the cell, or leave it empty for the default warehouse", l.Warehouse, r.f.warehouseList()))
			continue
		}
		// Reads overrule the state; the whole listing, read, names
		// every SKU of the account.
		if id, ok := r.f.ids[l.SKU]; ok || r.f.listedAll {
			l.VariantID = id
		}
		if l.VariantID == "" {
			l.Set(engine.Unknown, unknownSKUMessage(l.SKU))
		}
	}
	return nil
}

func unknownSKUMessage(sku string) string {
	return fmt.Sprintf("SKU %q is not in the account: a stock push never creates variants; import the product first, or correct the SKU", sku)
}

// learned are the SKU ids the reads taught that the state did not hold
// (before the rows are placed: their VariantID is still the remembered).
func learned(lines []Line, f *facts) map[string]string {
	changed := make(map[string]string, len(f.ids))
	for k, v := range f.ids {
		changed[k] = string(v)
	}
	if len(changed) == 0 {
		return changed
	}
	for i := range lines {
		if l := &lines[i]; l.VariantID != "" && changed[l.SKU] == string(l.VariantID) {
			delete(changed, l.SKU)
		}
	}
	return changed
}

// remember saves what the reads taught: new or changed SKU ids (the cache
// is refreshed, not rebuilt), the warehouses seen and the token's.
func (p *Pusher) remember(ctx context.Context, f *facts, changed map[string]string, def, token api.ID) error {
	if err := p.Opts.State.PutIDs(ctx, state.KeySKUs(p.Opts.Scope), changed); err != nil {
		return err
	}
	whs := map[string]string{}
	for id, label := range f.warehouses {
		whs[string(id)] = label
	}
	if token == "" && def != "" && p.Opts.Warehouse == "" {
		whs[tokenKey] = string(def)
	}
	if held(whs, f.stored) {
		// Nothing learned: no commit, which waits for the disk (a push
		// every minute from a file the state knows writes nothing).
		return nil
	}
	return p.Opts.State.PutIDs(ctx, warehouseScope(p.Opts.Scope), whs)
}

// held says stored holds every entry of kv as it is.
func held(kv, stored map[string]string) bool {
	for k, v := range kv {
		if s, ok := stored[k]; !ok || s != v {
			return false
		}
	}
	return true
}

// duplicateConflict settles rows giving one SKU different quantities: all
// are Invalid, naming each other.
func duplicateConflict(lines []Line, rows []int) {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = fmt.Sprintf("row %d: %d", lines[r].Row, lines[r].Units)
	}
	for _, r := range rows {
		l := &lines[r]
		l.repeats = 0
		l.Set(engine.Invalid, fmt.Sprintf("SKU %q is given %d times with different quantities (%s); keep one row per SKU and warehouse, and push again",
			l.SKU, len(rows), strings.Join(parts, ", ")))
	}
}
