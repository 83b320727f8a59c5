package exporter_test

import (
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"lading/api"
	"lading/exporter"
	"lading/exporter/sheet/sheettest"
	"lading/sandbox"
	"lading/templates"
)

// created finds the times of writing in a dump: the properties', and the
// one in the description and footers.
var created = regexp.MustCompile(`((?:created|modified) )\S+|(Made )\d{4}-\d\d-\d\d \d\d:\d\d [^ .&"]+`)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// reportAccount is an account holding the Shopify apparel catalog, a month
// of orders with packing slips and shipments, open fulfillments and a
// bundle ordered: the same data at every run.
func reportAccount(t *testing.T) *account {
	t.Helper()
	srv, acct, a, _ := catalogAccount(t)
	ctx := context.Background()
	// Stock in the warehouse, so that the open orders' fulfillments open.
	var levels []api.StockLevel
	for v, err := range a.c.Variants.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		levels = append(levels, api.StockLevel{VariantID: v.ID, WarehouseID: api.ID(acct.WarehouseID), Units: 40})
	}
	if _, err := a.c.Stock.SetAvailable(ctx, levels); err != nil {
		t.Fatal(err)
	}
	unshipped := 3
	if _, err := srv.Seed(ctx, sandbox.SeedSpec{Token: "tok", Orders: 8, Seed: 3, Month: "2026-10", Unshipped: &unshipped, Locations: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateBundle(ctx, sandbox.BundleSpec{Token: "tok", SKU: "SRT_COT_333",
		Components: []sandbox.OrderLine{{SKU: "SRT_COT_111", Quantity: 1}, {SKU: "SRT_COT_222", Quantity: 2}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateOrder(ctx, sandbox.OrderSpec{Token: "tok", ShippingAddress: map[string]string{"company": "Bundle Buyer", "city": "Lyon", "country": "FR"},
		Lines: []sandbox.OrderLine{{SKU: "SRT_COT_333", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	return a
}

// Each report template's export, to CSV (byte for byte) and to XLSX (read
// back cell by cell: type, value, number format, bold, formulas, frozen
// header; and how each sheet prints, the summary and its chart), is the
// golden one. The CSV files are those written before the reports printed:
// a summary, check boxes, columns kept off print and page breaks leave
// CSV alone.
func TestReportsGolden(t *testing.T) {
	t.Parallel()
	a := reportAccount(t)
	for _, tt := range []struct{ template, resource string }{
		{"accounting-slips", exporter.PackingSlips},
		{"picking", exporter.Fulfillments},
		{"catalog", exporter.Products},
	} {
		t.Run(tt.template, func(t *testing.T) {
			text, err := templates.Get(tt.template)
			if err != nil {
				t.Fatal(err)
			}
			r, err := exporter.ParseReport(tt.template, text)
			if err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{".csv", ".xlsx"} {
				out := filepath.Join(a.dir, tt.template+ext)
				sum, err := exporter.Export(context.Background(), exporter.Options{Client: a.c, Resource: tt.resource, Report: r, Output: out, Account: "shop.example.com"})
				if err != nil {
					t.Fatal(err)
				}
				if sum.Rows == 0 {
					t.Fatalf("%s%s: no rows", tt.template, ext)
				}
				for _, f := range sum.Files {
					var got []byte
					if ext == ".xlsx" {
						// The time of writing is the one fact that changes.
						got = created.ReplaceAll([]byte(sheettest.Dump(t, f)), []byte("${1}${2}TIME"))
					} else if got, err = os.ReadFile(f); err != nil {
						t.Fatal(err)
					}
					name := filepath.Base(f)
					if ext == ".xlsx" {
						name += ".txt"
					}
					sheettest.Golden(t, filepath.Join("testdata", name), got, *update)
				}
			}
		})
	}
}

// catalogAccount is a sandbox whose account (token "tok") holds the
// Shopify apparel catalog: the server, the account's record in it, the
// account, and its base URL.
func catalogAccount(t *testing.T) (*sandbox.Server, sandbox.Account, *account, string) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	acct, err := srv.RegisterToken("tok")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	base := hs.URL + "/api2"
	a := newAccountAt(t, base)
	a.load("shopify", a.catalog("shopify-product-template.csv"))
	return srv, acct, a, base
}

// newAccountAt is an account at base with its own state.
func newAccountAt(t *testing.T, base string) *account {
	t.Helper()
	a := newAccount(t)
	c, err := api.NewClient(base, "tok", api.WithRate(1000, 100))
	if err != nil {
		t.Fatal(err)
	}
	a.c = c
	return a
}
