package stock

import (
	"cmp"
	"strconv"

	"lading/engine"
	"lading/results"
)

// resultColumns are the results file's columns after file and row.
var resultColumns = []string{"sku", "warehouse", "variant_id", "old_level", "new_level", "action", "message"}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (engine.Counts, error) {
	counts := engine.Counts{}
	for i := range in.Lines {
		counts[in.Lines[i].Action]++
	}
	err := results.WriteLines(path, in.File, resultColumns, in.Lines, func(l *Line) (int, []string) {
		old, level := "", ""
		if l.HasOld {
			old = strconv.FormatFloat(l.Old, 'f', -1, 64)
		}
		if l.Valid {
			level = strconv.FormatInt(l.Units, 10)
		}
		wh := cmp.Or(string(l.WarehouseID), l.Warehouse)
		return l.Row, []string{l.SKU, wh, string(l.VariantID), old, level, string(l.Action), l.Msg}
	})
	if err != nil {
		return nil, err
	}
	return counts, nil
}
