package sandbox

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
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
