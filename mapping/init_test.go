package mapping

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readHeader(t *testing.T, file string) []string {
	t.Helper()
	return readHeaderIn(t, "catalogs", file, ',')
}

// readHeaderIn reads the header of testdata/dir/file.
func readHeaderIn(t *testing.T, dir, file string, delimiter rune) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("../testdata", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = delimiter
	h, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	h[0] = strings.TrimPrefix(h[0], "\ufeff")
	return h
}

func TestInitRecognisesLayouts(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"shopify-apparel.csv":                "shopify",
		"shopify-product-template.csv":       "shopify",
		"woocommerce-sample-products.csv":    "woocommerce",
		"shopify-posters-linked-options.csv": "shopify",
		"shopify-2024-template.csv":          "shopify-2024",
		"bigcommerce-machdemo.csv":           "bigcommerce",
		"bigcommerce-chatto.csv":             "bigcommerce",
		"bigcommerce-bulk-edit-sample.csv":   "bigcommerce-bulk-edit",
		"bigcommerce-bulk-edit-skus.csv":     "bigcommerce-bulk-edit",
		"squarespace-vallcan.csv":            "squarespace",
		"squarespace-cottoncuts.csv":         "squarespace",
	} {
		header := readHeader(t, file)
		name, text := Init(header, file)
		if name != want {
			t.Errorf("%s: template %q, want %q", file, name, want)
			continue
		}
		if !strings.Contains(string(text), "# Mapping for "+file) {
			t.Errorf("%s: text does not name the file", file)
		}
		m, err := Parse(name+".yaml", text)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if _, err := m.Compile(file, header); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// WooCommerce headers carry the store's units ("Weight (kg)"): the template
// reads any of them as it is.
func TestInitWooAnyWeightUnit(t *testing.T) {
	t.Parallel()
	header := []string{"ID", "Type", "SKU", "Name", "Description", "Tags", "Stock", "Weight (kg)", "Regular price", "Sale price", "Parent",
		"Attribute 1 name", "Attribute 1 value(s)"}
	name, text := Init(header, "woo.csv")
	if name != "woocommerce" {
		t.Fatalf("template %q:\n%s", name, text)
	}
	m, err := Parse("w.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Compile("woo.csv", header); err != nil {
		t.Errorf("a WooCommerce export with one attribute column pair and kg must compile: %v", err)
	}
}

func TestInitGeneric(t *testing.T) {
	t.Parallel()
	header := []string{"product_key", "product_name", "product_description", "product_notes", "tags", "sku", "description", "weight",
		"cost", "upc", "stock", "option1_name", "option1_value", "option2_name", "option2_value", "option3_name", "option3_value", "tier:Retail"}
	name, text := Init(header, "catalog.csv")
	if name != "generic" {
		t.Fatalf("template %q", name)
	}
	m, err := Parse("g.yaml", text)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Compile("catalog.csv", header)
	if err != nil {
		t.Fatal(err)
	}
	var r Row
	p.Eval([]string{"k", "Name", "", "", "a|b", "S", "", "0.5", "", "", "4", "Color", "Red", "", "", "", "", "12.50"}, &r)
	if len(r.Errors) > 0 || len(r.Tiers) != 1 || r.Tiers[0] != (Tier{"Retail", "12.5"}) || strings.Join(r.Product.Tags, ",") != "a,b" {
		t.Errorf("row %+v", r)
	}
}

func TestInitStarter(t *testing.T) {
	t.Parallel()
	header := []string{"Reference", "Product Name", "Long text", "Colour", "Size", "Price", "Stock qty", "Weight kg", "Barcode"}
	name, text := Init(header, "odd.csv")
	if name != "" {
		t.Fatalf("template %q for an unknown layout", name)
	}
	s := string(text)
	for i, h := range header {
		if !strings.Contains(s, "#   "+string(rune('1'+i))+". \""+h+"\"") {
			t.Errorf("starter does not list column %q:\n%s", h, s)
		}
	}
	for _, want := range []string{`key: "Reference"`, `name: "Product Name"`, `stock: "Stock qty"`, `upc: "Barcode"`, `columns: ["Colour", "Size"]`, `"Price": "Price"`} {
		if !strings.Contains(s, want) {
			t.Errorf("starter lacks %s:\n%s", want, s)
		}
	}
	m, err := Parse("odd.yaml", text)
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	if _, err := m.Compile("odd.csv", header); err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
}

// TestInitRecognisesSectionLayouts: Init writes a stock, shipments or
// slips mapping for a file in such a layout, its columns named as the
// file names them, which binds to the header and reads its first row;
// other headers get their catalog template, or the catalog starter.
func TestInitRecognisesSectionLayouts(t *testing.T) {
	t.Parallel()
	shopifyOld := strings.Split("Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,"+
		"SKU,HS Code,COO,Location,Incoming,Unavailable,Committed,Available,On hand", ",")
	tests := []struct {
		name   string
		header []string
		want   string   // the template; "" for the starter
		why    []string // what Why and the mapping's head comment say
		row    []string // a row of the file
		check  func(t *testing.T, m *Mapping, header, row []string)
	}{
		{"Shopify inventory export", readHeaderIn(t, "stock", "shopify-inventory-export.csv", ','), "shopify-inventory", nil, nil, nil},
		{"Shopify inventory export before 2024", shopifyOld, "shopify-inventory", nil, nil, nil},
		{"Amazon FBA report", readHeaderIn(t, "stock", "amazon-fba-inventory.txt", '\t'), "amazon-fba", nil, nil, nil},
		{"lading's stock layout", []string{"sku", "quantity", "warehouse"}, "stock", []string{"its header has sku and quantity", "lading's stock layout"},
			[]string{"S-1", "4", "Main"}, stockRow(StockRow{SKU: "S-1", Quantity: "4", Warehouse: "Main"})},
		{"lading's stock layout, no warehouse", []string{"quantity", " sku ", ""}, "stock", nil,
			[]string{"4", "S-1", ""}, stockRow(StockRow{SKU: "S-1", Quantity: "4"})},
		{"SKU,Qty", []string{"SKU", "Qty"}, "stock", []string{"its header has SKU and Qty: a SKU and its units on each row"},
			[]string{"S-1", "4"}, stockRow(StockRow{SKU: "S-1", Quantity: "4"})},
		{"Item SKU, Name, On Hand, Location", []string{"Item SKU", "Name", "On Hand", "Location"}, "stock", []string{"its header has Item SKU and On Hand"},
			[]string{"S-1", "Tee", "7", "Main"}, stockRow(StockRow{SKU: "S-1", Quantity: "7", Warehouse: "Main"})},
		{"a catalog with a quantity column", []string{"sku", "quantity", "name", "price"}, "", nil, nil, nil},
		{"lading's shipments layout", []string{"fulfillment_id", "line_item_id", "sku", "quantity", "tracking_number", "carrier"}, "shipments",
			[]string{"its header has fulfillment_id, line_item_id, quantity and tracking_number", "lading's shipments layout"},
			[]string{"91", "7001", "S-1", "2", "1Z9", "UPS"}, shipmentRow(ShipmentRow{FulfillmentID: "91", LineItemID: "7001", SKU: "S-1", Quantity: 2, TrackingNumber: "1Z9", Carrier: "UPS"})},
		{"a warehouse system's shipments", []string{"Order Number", "SKU", "Qty Shipped", "Tracking #", "Carrier"}, "shipments",
			[]string{"its header has Order Number, SKU, Qty Shipped and Tracking #"},
			[]string{"#1001", "S-1", "2", "1Z9", "DHL"}, shipmentRow(ShipmentRow{OrderNumber: "#1001", SKU: "S-1", Quantity: 2, TrackingNumber: "1Z9", Carrier: "DHL"})},
		{"lading's slips layout", []string{"slip_key", "order_id", "line_item_id", "quantity", "tracking_number"}, "slips",
			[]string{"its header has slip_key and order_id", "lading's slips layout"},
			[]string{"W-1", "5001", "7001", "2", "1Z9"}, slipRow(SlipRow{Key: "W-1", Order: "5001", LineItem: "7001", Quantity: "2", TrackingNumber: Value{S: "1Z9", Set: true}})},
		{"slips, spelt otherwise", []string{"Slip No", "Order ID", "Tracking Number"}, "slips", []string{"its header has Slip No and Order ID"},
			[]string{"W-1", "5001", "1Z9"}, slipRow(SlipRow{Key: "W-1", Order: "5001", TrackingNumber: Value{S: "1Z9", Set: true}})},
		{"generic catalog", []string{"product_key", "product_name", "sku", "quantity"}, "generic", nil, nil, nil},
		{"unknown catalog", []string{"Reference", "Name", "Price", "Qty"}, "", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			name, text := Init(tt.header, "in.csv")
			if name != tt.want {
				t.Fatalf("template %q, want %q", name, tt.want)
			}
			for _, w := range tt.why {
				if !strings.Contains(string(text), w) {
					t.Errorf("the mapping does not say %q:\n%s", w, text[:min(len(text), 300)])
				}
			}
			m, err := Parse("m.yaml", text)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			switch {
			case name == "":
				if m.Stock != nil || m.Shipments != nil || m.Slips != nil {
					t.Errorf("the starter maps no catalog:\n%s", text)
				}
			case tt.check != nil:
				tt.check(t, m, tt.header, tt.row)
			case strings.Contains(name, "inventory") || name == "amazon-fba":
				if _, err := m.CompileStock("in.csv", tt.header); err != nil || !m.StockOnly() {
					t.Errorf("the template does not fit the header: %v", err)
				}
			default:
				if _, err := m.Compile("in.csv", tt.header); err != nil {
					t.Errorf("the template does not fit the header: %v", err)
				}
			}
		})
	}
}

// sectionRow checks that a mapping maps one section only (only) and that
// the section, compiled for the header, reads row as want.
func sectionRow[R any, P interface{ Eval([]string, *R) error }](compile func(*Mapping, []string) (P, error), only func(*Mapping) bool, want R) func(t *testing.T, m *Mapping, header, row []string) {
	return func(t *testing.T, m *Mapping, header, row []string) {
		p, err := compile(m, header)
		if err != nil || !only(m) {
			t.Fatalf("one section only %v, %v", only(m), err)
		}
		var got R
		if err := p.Eval(row, &got); err != nil {
			t.Fatal(err)
		}
		if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w { // no errors: nil or empty
			t.Errorf("got  %s\nwant %s", g, w)
		}
	}
}

func stockRow(want StockRow) func(t *testing.T, m *Mapping, header, row []string) {
	return sectionRow(func(m *Mapping, h []string) (*StockProgram, error) { return m.CompileStock("in.csv", h) }, (*Mapping).StockOnly, want)
}

func shipmentRow(want ShipmentRow) func(t *testing.T, m *Mapping, header, row []string) {
	return sectionRow(func(m *Mapping, h []string) (*ShipmentProgram, error) { return m.CompileShipments("in.csv", h, nil) }, (*Mapping).ShipmentsOnly, want)
}

func slipRow(want SlipRow) func(t *testing.T, m *Mapping, header, row []string) {
	return sectionRow(func(m *Mapping, h []string) (*SlipProgram, error) { return m.CompileSlips("in.csv", h, nil) }, (*Mapping).SlipsOnly, want)
}

// Init says which template it chose and what in the header gave the
// layout away, in the header's own spelling.
func TestInitSaysWhy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header []string
		want   string
	}{
		{"Shopify", readHeader(t, "shopify-apparel.csv"), "its header has Handle, Option1 Value and Variant SKU"},
		{"WooCommerce", readHeader(t, "woocommerce-sample-products.csv"), "its header has Type, SKU, Parent and Regular price"},
		{"generic, any case and spaces", []string{" Product_Key", "SKU "}, "its header has Product_Key and SKU"},
		{"lading's stock layout", []string{"sku", "quantity"}, "its header has sku and quantity: a SKU and its units on each row, lading's stock layout"},
		{"a stock file of other names", []string{"SKU", "Qty"}, "its header has SKU and Qty: a SKU and its units on each row, lading's stock layout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Recognise(tt.header)
			if !ok || d.Why != tt.want {
				t.Fatalf("Recognise = %+v, %v; want why %q", d, ok, tt.want)
			}
			_, text := Init(tt.header, "in.csv")
			if want := fmt.Sprintf("from the %q template:\n# %s.\n", d.Template, tt.want); !strings.Contains(string(text), want) {
				t.Errorf("the mapping does not say why:\n%s", text[:min(len(text), 300)])
			}
		})
	}
	if d, ok := Recognise([]string{"Reference", "Name", "Price"}); ok {
		t.Errorf("an unknown layout was recognised as %+v", d)
	}
}
