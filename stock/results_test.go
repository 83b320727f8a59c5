package stock

import (
	"math"
	"strconv"
	"testing"

	"lading/engine"
	"lading/results/resultstest"
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
	resultstest.CheckCells(t, lines)
}

// Levels are written as strconv writes them, the small whole ones too.
func TestLevelTexts(t *testing.T) {
	t.Parallel()
	var lt levelTexts
	for _, v := range []float64{0, math.Copysign(0, -1), 1, 7, 1023, 1024, 1e15 + 1, 2.5, -3, 1023.5, math.MaxInt64} {
		for range 2 { // made, then remembered
			if got, want := lt.float(v), strconv.FormatFloat(v, 'f', -1, 64); got != want {
				t.Errorf("float(%v) = %q, want %q", v, got, want)
			}
		}
	}
	for _, v := range []int64{-1, 0, 9, 1023, 1024, 1 << 53} {
		if got, want := lt.int(v), strconv.FormatInt(v, 10); got != want {
			t.Errorf("int(%d) = %q, want %q", v, got, want)
		}
	}
}
