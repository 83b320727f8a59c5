package stock

import (
	"cmp"
	"iter"
	"math"
	"strconv"

	"lading/engine"
	"lading/results"
)

// result is a row's line in the results file.
type result struct {
	File      string        `csv:"file"`
	Row       int           `csv:"row"`
	SKU       string        `csv:"sku"`
	Warehouse string        `csv:"warehouse"`
	VariantID string        `csv:"variant_id"`
	OldLevel  string        `csv:"old_level"`
	NewLevel  string        `csv:"new_level"`
	Action    engine.Status `csv:"action"`
	Message   string        `csv:"message"`
}

// Cells gives the line's cells, in the order of its fields (a
// results.Celler).
func (r *result) Cells(c *results.Cells) {
	c.Text(r.File)
	c.Int(r.Row)
	for _, s := range [...]string{r.SKU, r.Warehouse, r.VariantID, r.OldLevel, r.NewLevel, string(r.Action), r.Message} {
		c.Text(s)
	}
}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (engine.Counts, error) {
	return engine.Count(in.Lines), results.Write(path, resultsOf(in))
}

func resultsOf(in *Input) iter.Seq[result] {
	return func(yield func(result) bool) {
		var levels levelTexts
		for i := range in.Lines {
			l := &in.Lines[i]
			r := result{File: in.File, Row: l.Row, SKU: l.SKU, Warehouse: cmp.Or(string(l.WarehouseID), l.Warehouse),
				VariantID: string(l.VariantID), Action: l.Action, Message: l.Msg}
			if l.HasOld {
				r.OldLevel = levels.float(l.Old)
			}
			if l.Valid {
				r.NewLevel = levels.int(l.Units)
			}
			if !yield(r) {
				return
			}
		}
	}
}

// levelTexts write levels as strconv does, the small whole ones (most
// levels, each in many rows) made once.
type levelTexts struct{ small [1024]string }

func (t *levelTexts) int(v int64) string {
	if v < 0 || v >= int64(len(t.small)) {
		return strconv.FormatInt(v, 10)
	}
	if t.small[v] == "" {
		t.small[v] = strconv.FormatInt(v, 10)
	}
	return t.small[v]
}

// float is strconv.FormatFloat(v, 'f', -1, 64).
func (t *levelTexts) float(v float64) string {
	if v >= 0 && v < float64(len(t.small)) && v == math.Trunc(v) && !math.Signbit(v) {
		return t.int(int64(v))
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
