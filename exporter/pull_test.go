package exporter

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSplitName(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
		{"{header: Gr\xf6\xdfe, field: sku}", "report template t: line 1, column 54: byte 0xF6 is not UTF-8: save the report template as UTF-8"},
	} {
		_, err := ParseReport("t", []byte("sheets: [{name: S, rows: lines, columns: ["+tt.column+"]}]"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("column %s: %v, want %q", tt.column, err, tt.want)
		}
	}
	var me *MismatchError
	if _, err := r.bind(Fulfillments, fulfillmentEntities); !errors.As(err, &me) || me.For != PullLines || !errors.Is(err, ErrReport) {
		t.Errorf("a pull template given to an export: %v, want a MismatchError saying it is for a pull", err)
	}
}

// only: leaves out the rows whose field is 0, and takes numeric fields
// only.
func TestReportOnly(t *testing.T) {
	t.Parallel()
	src := "report: t\nresource: fulfillment-lines\nsheets:\n  - name: S\n    rows: lines\n    only: %s\n    columns:\n      - {field: sku}\n"
	r, err := ParseReport("t", fmt.Appendf(nil, src, "quantity_left"))
	if err != nil {
		t.Fatal(err)
	}
	layout, err := r.bind(PullLines, []entity{pullEntity})
	if err != nil {
		t.Fatal(err)
	}
	left := pullEntity.index("quantity_left")
	for _, c := range []struct {
		left string
		kept bool
	}{{"2", true}, {"0", false}, {"0.0", false}, {"", false}, {"-1", true}} {
		row := make([]string, len(pullEntity.fields))
		row[left] = c.left
		kept := !(layout[0].only >= 0 && isZero(row[layout[0].only]))
		if kept != c.kept {
			t.Errorf("quantity_left %q: kept %v, want %v", c.left, kept, c.kept)
		}
	}
	r, err = ParseReport("t", fmt.Appendf(nil, src, "sku"))
	if err == nil {
		_, err = r.bind(PullLines, []entity{pullEntity})
	}
	if err == nil || !strings.Contains(err.Error(), `only: "sku" is not a numeric field`) {
		t.Errorf("only: sku: %v", err)
	}
}
