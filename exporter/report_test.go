package exporter

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"lading/exporter/sheet"
)

// The print options of a report template: print: false, a check box
// column, a group; each misuse is refused, naming the sheet and what to
// write.
func TestReportPrintOptions(t *testing.T) {
	t.Parallel()
	r, err := ParseReport("p", []byte(`report: p
sheets:
  - name: Picking
    rows: lines
    sort: [fulfillment_id, location]
    group: fulfillment_id
    columns:
      - {header: Picked, checkbox: true}
      - {header: Location, field: location}
      - {header: Line, field: line_item_id, print: false}
`))
	if err != nil {
		t.Fatal(err)
	}
	layout, err := r.bind(Fulfillments, fulfillmentEntities)
	if err != nil {
		t.Fatal(err)
	}
	ls := layout[0]
	cols := ls.sheet.Columns
	if !ls.sheet.PageBreaks || ls.group != fulfillmentEntities[0].index("fulfillment_id") ||
		!cols[0].Check || cols[0].Header != "Picked" || ls.from[0] != -1 || cols[1].NoPrint || !cols[2].NoPrint {
		t.Errorf("layout %+v: want page breaks by fulfillment, a check box, the line's id off print", ls)
	}

	for _, tt := range []struct{ name, yaml, resource, want string }{
		{"a check box with a field", `sheets: [{name: S, rows: lines, columns: [{header: Done, checkbox: true, field: sku}]}]`, Fulfillments,
			`sheet "S", column 1 is a check box: give it a header, and no field or value`},
		{"a check box without a header", `sheets: [{name: S, rows: lines, columns: [{checkbox: true}]}]`, Fulfillments,
			`column 1 is a check box: give it a header`},
		{"a group not sorted by", `sheets: [{name: S, rows: lines, sort: [location], group: fulfillment_id}]`, Fulfillments,
			`sheet "S" groups its rows by "fulfillment_id": sort them by it first (sort: [fulfillment_id, ...])`},
		{"a group of no field", `sheets: [{name: S, rows: lines, sort: [nope], group: nope}]`, Fulfillments,
			`cannot group by "nope"`},
		{"a summary of fulfillments", `{summary: Sum, sheets: [{name: S, rows: lines}]}`, Fulfillments,
			`summary: the summary sheet sums up packing slips; fulfillments has none`},
		{"a summary of the catalog", `{summary: Sum, sheets: [{name: S, rows: catalog}]}`, Products,
			"a products export has no summary and no groups"},
		{"a check box in the catalog", `sheets: [{name: S, rows: catalog, columns: [{header: Done, checkbox: true}]}]`, Products,
			`a products export writes fields of the catalog, not a value or a check box (column "Done")`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseReport("t", []byte(tt.yaml))
			if err == nil && tt.resource == Products {
				_, err = catalogReport(Options{Report: r})
			} else if err == nil {
				_, err = r.bind(tt.resource, resources[tt.resource].entities)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v, want %q", err, tt.want)
			}
		})
	}
}

// A catalog report keeps a column off print by its field.
func TestCatalogNoPrint(t *testing.T) {
	t.Parallel()
	r, err := ParseReport("c", []byte(`sheets: [{name: Catalog, rows: catalog, columns: [{field: product_key, print: false}, {field: sku}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	cols := r.noPrint([]sheet.Column{{Header: "product_key"}, {Header: "sku"}})
	if !cols[0].NoPrint || cols[1].NoPrint {
		t.Errorf("columns %+v: want product_key off print, sku on it", cols)
	}
	var none *Report
	if cols := none.noPrint([]sheet.Column{{Header: "sku"}}); cols[0].NoPrint {
		t.Errorf("no report: %+v", cols)
	}
}

// BenchmarkSlipTally adds up 100,000 slips of one or two shipments each,
// as the summary of a packing slips export does while its rows are
// written; the summary is then made from the tally.
func BenchmarkSlipTally(b *testing.B) {
	const n = 100_000
	slip := make([]string, len(slipFields.fields))
	ship := make([]string, len(shipmentFields.fields))
	carriers := []string{"UPS", "USPS", "FedEx", "DHL"}
	for b.Loop() {
		t := newSlipTally(nil)
		for i := range n {
			id := strconv.Itoa(100000000 + i)
			for p := range 1 + i%2 {
				ship[fShipmentSlip], ship[fCarrier], ship[fShipmentCost] = id, carriers[(i+p)%4], "8.95"
				t.add(entShipments, ship)
			}
			slip[fSlipID], slip[fSlipDate], slip[fStatus] = id, fmt.Sprintf("2026-%02d-%02dT10:00:00+00:00", 1+i%12, 1+i%28), "shipped"
			slip[fVoid], slip[fUnits], slip[fShippingCost] = strconv.Itoa(i%50/49), "3", "17.90"
			t.add(entSlips, slip)
		}
		t.summary(sheet.Options{Title: "Slips"}, nil, nil)
	}
}
