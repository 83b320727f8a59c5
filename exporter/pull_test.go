package exporter

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitName(t *testing.T) {
	for _, tt := range []struct{ full, first, last string }{
		{"Ana María Pérez", "Ana María", "Pérez"},
		{"  Jo   Doe ", "Jo", "Doe"},
		{"Acme", "Acme", ""},
		{"", "", ""},
	} {
		if first, last := splitName(tt.full); first != tt.first || last != tt.last {
			t.Errorf("splitName(%q) = %q, %q; want %q, %q", tt.full, first, last, tt.first, tt.last)
		}
	}
}

// A report column may be a fixed value instead of a field: it is written
// in every row, and a column with both, or neither, is refused.
func TestReportValueColumns(t *testing.T) {
	r, err := ParseReport("t", []byte(`report: t
resource: fulfillment-lines
sheets:
  - name: Orders
    rows: lines
    columns:
      - {header: ref, field: order_number}
      - {header: method, value: ""}
      - {header: source, value: lading}
      - {header: qty, field: quantity_left}`))
	if err != nil {
		t.Fatal(err)
	}
	layout, err := r.bind(PullLines, []entity{pullEntity})
	if err != nil {
		t.Fatal(err)
	}
	ls := layout[0]
	var headers []string
	for _, c := range ls.sheet.Columns {
		headers = append(headers, c.Header)
	}
	if want := []string{"ref", "method", "source", "qty"}; !slices.Equal(headers, want) {
		t.Errorf("headers %q, want %q", headers, want)
	}
	row := make([]string, len(pullEntity.fields))
	row[pullEntity.index("order_number")], row[pullEntity.index("quantity_left")] = "O7", "2"
	tb := &table{}
	if got, want := tb.project(row, ls), []string{"O7", "", "lading", "2"}; !slices.Equal(got, want) {
		t.Errorf("row %q, want %q", got, want)
	}

	for _, tt := range []struct{ column, want string }{
		{`{header: a, field: sku, value: x}`, "has a field and a value"},
		{`{header: a}`, "has no field (or value)"},
		{`{value: x}`, "has a value but no header"},
	} {
		_, err := ParseReport("t", []byte("sheets: [{name: S, rows: lines, columns: ["+tt.column+"]}]"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("column %s: %v, want %q", tt.column, err, tt.want)
		}
	}
	if _, err := r.bind(Fulfillments, fulfillmentEntities); err == nil || !strings.Contains(err.Error(), "lading fulfillments pull --template t") {
		t.Errorf("a pull template given to an export: %v, want it to name the pull", err)
	}
}
