package templates_test

import (
	"path/filepath"
	"testing"
	"time"

	"lading/mapping"
	"lading/source"
)

// The slips template maps packing slips only, and reads its sample
// (testdata/slips/slips.csv) without an error on any row.
func TestSlipsTemplateReadsItsSample(t *testing.T) {
	t.Parallel()
	m := parseTemplate(t, "slips")
	if !m.SlipsOnly() {
		t.Fatalf("the slips template maps more than packing slips: %+v", m)
	}
	s := m.Source
	header, rows := readSource(t, filepath.Join("..", "testdata", "slips", "slips.csv"), source.Options{Format: s.Format, Delimiter: s.Delimiter})
	p, err := m.CompileSlips("slips.csv", header, time.UTC)
	if err != nil {
		t.Fatalf("the template does not fit its sample's header: %v", err)
	}
	var r mapping.SlipRow
	var got []string
	for i, row := range rows {
		if err := p.Eval(row, &r); err != nil {
			t.Errorf("row %d: %v", i+2, err)
		}
		got = append(got, r.Key+" "+r.Order+" "+r.LineItem+"x"+r.Quantity+" "+r.Package+" "+r.ShipDate.S+" "+r.TrackingNumber.S+" "+r.Carrier+" "+r.Delivered.S)
	}
	want := []string{
		"WMS-1001 533943058 1000123x1  2026-11-21T07:00:00+0000 1Z999AA10123456784 UPS 0",
		"WMS-1001 533943058 1000124x2     ",
		"WMS-1002 533943059 1000130x1 1 2026-11-21T00:00:00+0000 JD014600006281230001 DHL 1",
		"WMS-1002 533943059 1000131x3 2 2026-11-21T00:00:00+0000 JD014600006281230002 DHL 1",
	}
	if len(got) != len(want) {
		t.Fatalf("rows %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %q, want %q", i+2, got[i], want[i])
		}
	}
}
