package sandbox

// setAvailable makes available units of variant in warehouse: stock
// becomes units plus what is committed there.
func (t *txn) setAvailable(account, variant, warehouse, units int64) error {
	if _, err := t.exec(`INSERT INTO stock_levels(id, account_id, variant_id, address_id, stock, committed, created_at, updated_at)
		VALUES(?,?,?,?,?,0,?,?) ON CONFLICT(variant_id, address_id) DO UPDATE SET stock = excluded.stock + committed,
		updated_at = excluded.updated_at`, t.newID(), account, variant, warehouse, units, t.now, t.now); err != nil {
		return err
	}
	t.stockChanged = true
	t.levelsSet++
	return t.refreshVariantStock(variant)
}

// adjustLevel adds to the stock and committed units of variant in
// warehouse.
func (t *txn) adjustLevel(account, variant, warehouse, dStock, dCommitted int64) error {
	if _, err := t.exec(`INSERT INTO stock_levels(id, account_id, variant_id, address_id, stock, committed, created_at, updated_at)
		VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(variant_id, address_id) DO UPDATE SET stock = stock + excluded.stock,
		committed = committed + excluded.committed, updated_at = excluded.updated_at`,
		t.newID(), account, variant, warehouse, dStock, dCommitted, t.now, t.now); err != nil {
		return err
	}
	return t.refreshVariantStock(variant)
}

// refreshVariantStock sums the variant's levels into its stock and
// committed_stock.
func (t *txn) refreshVariantStock(variant int64) error {
	_, err := t.exec(`UPDATE variants SET
		stock = (SELECT COALESCE(SUM(stock), 0) FROM stock_levels WHERE variant_id = ?1),
		committed_stock = (SELECT COALESCE(SUM(committed), 0) FROM stock_levels WHERE variant_id = ?1),
		updated_at = ?2 WHERE id = ?1`, variant, t.now)
	return err
}

// availableIn is what variant has available in warehouse.
func (t *txn) availableIn(variant, warehouse int64) (int64, error) {
	var n int64
	_, err := t.row(`SELECT stock - committed FROM stock_levels WHERE variant_id = ? AND address_id = ?`, []any{variant, warehouse}, &n)
	return n, err
}

// component is a variant in a bundle with its quantity per bundle.
type component struct {
	variant, quantity int64
}

func (t *txn) components(bundle int64) ([]component, error) {
	var out []component
	if err := t.eachRow(`SELECT component_id, quantity FROM bundle_components WHERE bundle_id = ? ORDER BY component_id`, []any{bundle}, func(rows *row) error {
		var c component
		if err := rows.Scan(&c.variant, &c.quantity); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// bundleAvailable is how many bundles the components' availability
// allows, over all warehouses.
func (t *txn) bundleAvailable(bundle int64) (int64, error) {
	comps, err := t.components(bundle)
	if err != nil || len(comps) == 0 {
		return 0, err
	}
	best := int64(-1)
	for _, c := range comps {
		var avail int64
		if _, err := t.row(`SELECT stock - committed_stock FROM variants WHERE id = ?`, []any{c.variant}, &avail); err != nil {
			return 0, err
		}
		n := max(avail/c.quantity, 0)
		if best < 0 || n < best {
			best = n
		}
	}
	return best, nil
}
