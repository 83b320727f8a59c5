package exporter_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"lading/exporter"
	"lading/exporter/sheet/sheettest"
	"lading/templates"
)

// The picking list a picker carries: sorted by location, a box to tick,
// the fulfillment and the order on every line, one page wide. Grouped by
// fulfillment (a pick walk an order), each walk begins a page: printed by
// LibreOffice, a page a fulfillment, each with the header row and every
// column.
func TestPickingPrints(t *testing.T) {
	t.Parallel()
	a := reportAccount(t)
	text, err := templates.Get("picking")
	if err != nil {
		t.Fatal(err)
	}
	grouped := strings.Replace(string(text), "sort: [location, sku, fulfillment_id]", "sort: [fulfillment_id, location, sku]\n    group: fulfillment_id", 1)
	for _, tt := range []struct {
		name, template string
	}{{"picking", string(text)}, {"by-order", grouped}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := exporter.ParseReport(tt.name, []byte(tt.template))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(a.dir, tt.name+".xlsx")
			if _, err := exporter.Export(context.Background(), exporter.Options{Client: a.c, Resource: exporter.Fulfillments, Report: r, Output: out}); err != nil {
				t.Fatal(err)
			}
			f, err := excelize.OpenFile(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := f.GetRows("Picking")
			if err != nil {
				t.Fatal(err)
			}
			header, lines := rows[0], rows[1:len(rows)-1] // the last is the totals row
			if !slices.Equal(header, []string{"Picked", "Location", "SKU", "To pick", "Bundle", "Fulfillment", "Sales order", "Ship to"}) {
				t.Fatalf("header %q", header)
			}
			var locations, orders []string
			for i, l := range lines {
				if l[0] != "☐" || l[1] == "" || l[5] == "" || l[6] == "" {
					t.Errorf("line %d %q: want a box to tick, a location, the fulfillment and the order", i+2, l)
				}
				locations, orders = append(locations, l[1]), append(orders, l[5])
			}
			walks := slices.Compact(slices.Clone(orders))
			breaks := sheettest.PartMatches(t, out, "xl/worksheets/sheet1.xml", `<brk id="(\d+)"`)["xl/worksheets/sheet1.xml"]
			print := sheettest.Print(t, f, "Picking")
			if tt.name == "picking" {
				if !slices.IsSorted(locations) || len(breaks) != 0 || !strings.Contains(print, "fit to page true 1 wide 0 tall") {
					t.Errorf("locations %q, page breaks %q, printed %s: want sorted, none, fitted one page wide", locations, breaks, print)
				}
			} else if len(walks) < 3 || len(breaks) != len(walks)-1 || !strings.Contains(print, "fit to page false 0 wide 0 tall scale") {
				t.Errorf("%d fulfillments (%q), page breaks after rows %q, printed %s: want a page break before each walk but the first, at a scale", len(walks), orders, breaks, print)
			}

			_, pages := sheettest.PDF(t, out, false)
			want := 1
			if tt.name == "by-order" {
				want = len(walks)
			}
			if len(pages) != want {
				t.Fatalf("%d pages, want %d:\n%s", len(pages), want, strings.Join(pages, "\n----\n"))
			}
			for i, p := range pages {
				if !strings.Contains(p, "Picked") || !strings.Contains(p, "Ship to") || !strings.Contains(p, "☐") || !strings.Contains(p, "Page ") {
					t.Errorf("page %d lacks the header row's first or last column, a box or the footer:\n%s", i+1, p)
				}
				if tt.name == "by-order" && !strings.Contains(p, walks[i]) {
					t.Errorf("page %d lacks fulfillment %s:\n%s", i+1, walks[i], p)
				}
			}
		})
	}
}
