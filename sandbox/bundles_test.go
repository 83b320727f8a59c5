package sandbox

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"lading/api/wire"
)

var customer = map[string]string{"name": "Ada Byron", "email": "ada@example.com"}

// A bundle's variant record names its components and the units of each
// in one bundle; other variants carry no such link.
func TestBundleComponentsLink(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	if _, err := e.srv.CreateBundle(context.Background(), BundleSpec{Token: e.token, SKU: "KIT",
		Components: []OrderLine{{SKU: "A", Quantity: 2}, {SKU: "B", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	a, _ := e.variantBySKU("A")
	b, _ := e.variantBySKU("B")
	kit, _ := e.variantBySKU("KIT")
	want := []any{map[string]any{"id": a["id"], "quantity": "2"}, map[string]any{"id": b["id"], "quantity": "1"}}
	for _, tc := range []struct {
		sku  string
		rec  map[string]any
		want any
	}{{"KIT", kit, want}, {"A", a, nil}} {
		if got := tc.rec["links"].(map[string]any)[wire.BundleComponents]; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s links.BundleComponents = %v, want %v", tc.sku, got, tc.want)
		}
	}
}

// A fulfillment read sideloads the variants of its line items (with their
// location) and the contact of its order.
func TestFulfillmentSideloadsLineVariants(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	if _, err := e.srv.CreateBundle(context.Background(), BundleSpec{Token: e.token, SKU: "KIT",
		Components: []OrderLine{{SKU: "A", Quantity: 2}}}); err != nil {
		t.Fatal(err)
	}
	a, _ := e.variantBySKU("A")
	e.mustIDs(wire.Variants, map[string]any{"id": a["id"], "location_1": "R2-S4"})
	e.order(OrderSpec{ShippingAddress: shipTo, Contact: customer, Lines: []OrderLine{{SKU: "KIT", Quantity: 1}, {SKU: "B", Quantity: 3}}})
	r := e.openFulfillments()
	f := r.records(wire.Fulfillments)[0]
	got := map[string]string{}
	for _, li := range linkIDsOf(f, wire.LineItems) {
		item := r.side(wire.LineItems, li)
		v := r.side(wire.Variants, item["variant_id"].(string))
		if v == nil {
			t.Fatalf("line %s: variant %v not sideloaded: %s", li, item["variant_id"], r.raw)
		}
		got[v["sku"].(string)] = v["location_1"].(string)
	}
	if want := map[string]string{"A": "R2-S4", "B": ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("line variants' locations %v, want %v (the bundle comes split)", got, want)
	}
	o := r.side(wire.SalesOrders, linkIDsOf(f, wire.SalesOrders)[0])
	if c := r.side(wire.Contacts, linkIDsOf(o, wire.Contacts)[0]); c["name"] != "Ada Byron" {
		t.Errorf("order contact %v", c)
	}
}

// A database file made before orders had dates, contacts and prices gets
// those columns when opened.
func TestOldDatabaseGetsNewColumns(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, local_id TEXT NOT NULL, warehouse_id INTEGER NOT NULL,
			address_id INTEGER, state TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
		`CREATE TABLE order_lines (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, variant_id INTEGER NOT NULL,
			sku TEXT NOT NULL, quantity INTEGER NOT NULL)`,
		`INSERT INTO orders VALUES (1, 1, 'O1', 1, NULL, 'waiting', '2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00+00:00')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	for range 2 { // and again, once they are there
		srv, err := New(Options{DBPath: path})
		if err != nil {
			t.Fatalf("opening a database of the older schema: %v", err)
		}
		var n int
		err = srv.st.do(context.Background(), func(t *txn) error {
			_, err := t.row(`SELECT COUNT(*) FROM orders WHERE po_num = '' AND currency_iso = 'USD' AND order_date IS NULL AND contact_id IS NULL`, nil, &n)
			return err
		})
		srv.Close()
		if err != nil || n != 1 {
			t.Fatalf("old order after the update: %d rows, %v", n, err)
		}
	}
}

// Variants' options and products' tags are kept in tables without rowids;
// a database file made before keeps its tables with them, and either
// serves the same answers.
func TestLinkTablesOfEitherLayout(t *testing.T) {
	t.Parallel()
	for _, old := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "links.db")
		if old {
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`CREATE TABLE variant_options (variant_id INTEGER NOT NULL, option_id INTEGER NOT NULL, position INTEGER NOT NULL,
					PRIMARY KEY (variant_id, option_id))`,
				`CREATE TABLE product_tag_links (product_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, PRIMARY KEY (product_id, tag_id))`,
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
		}
		e := newEnv(t, Options{DBPath: path})
		var rowless int
		if err := e.srv.st.do(context.Background(), func(t *txn) error {
			_, err := t.row(`SELECT COUNT(*) FROM sqlite_master WHERE name IN ('variant_options', 'product_tag_links') AND sql LIKE '%WITHOUT ROWID%'`, nil, &rowless)
			return err
		}); err != nil || rowless != map[bool]int{false: 2, true: 0}[old] {
			t.Fatalf("old layout %v: %d tables without rowids, %v", old, rowless, err)
		}
		for _, name := range []string{"Tee", "Hoodie"} {
			e.mustIDs(wire.Products, map[string]any{"name": name, "links": map[string]any{
				"Attributes":  []any{map[string]any{"name": "Color", "order": 0}, map[string]any{"name": "Size", "order": 1}},
				"ProductTags": []any{map[string]any{"name": "new"}},
				"Variants": []any{map[string]any{"sku": name + "-BK-S", "links": map[string]any{
					"AttributeOptions": []any{map[string]any{"value": "Black"}, map[string]any{"value": "S"}}}}},
			}})
		}
		v, r := e.variantBySKU("Hoodie-BK-S")
		opts := linkIDsOf(v, wire.AttributeOptions)
		if len(opts) != 2 || r.side(wire.AttributeOptions, opts[0])["name"] != "Black" || r.side(wire.AttributeOptions, opts[1])["name"] != "S" {
			t.Fatalf("old layout %v: options %v in %s", old, opts, r.raw)
		}
		if holders := linkIDsOf(r.side(wire.AttributeOptions, opts[0]), wire.Variants); !slices.Equal(holders, []string{v["id"].(string)}) {
			t.Errorf("old layout %v: option Black of the hoodie is held by %v, want its variant %s", old, holders, v["id"])
		}
		p := r.side(wire.Products, linkIDsOf(v, wire.Products)[0])
		if tags := linkIDsOf(p, wire.ProductTags); len(tags) != 1 || r.side(wire.ProductTags, tags[0])["name"] != "new" {
			t.Errorf("old layout %v: product tags %v", old, p["links"])
		}
	}
}
