package stock

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"lading/engine"
)

// The cells a results line gives itself are those gocsv makes of it from
// its tags, in the same order.
func TestResultCellsAreGocsvs(t *testing.T) {
	t.Parallel()
	lines := []result{
		{File: "stock.csv", Row: 2, SKU: "A-1", Warehouse: "7", VariantID: "42", OldLevel: "3", NewLevel: "5", Action: Sent},
		{File: "stock.csv", Row: 1000001, SKU: "=B", Action: engine.Invalid, Message: "quantity \"x\" is not a whole number"},
		{},
	}
	var b strings.Builder
	if err := gocsv.MarshalCSVWithoutHeaders(lines, gocsv.DefaultCSVWriter(&b)); err != nil {
		t.Fatal(err)
	}
	want, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := range lines {
		if got := lines[i].AppendCells(nil); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("line %d: cells %q, gocsv makes %q", i, got, want[i])
		}
	}
}
