package stock

import (
	"strconv"

	"lading/results"
)

// resultColumns are the results file's columns after file and row.
var resultColumns = []string{"sku", "warehouse", "variant_id", "old_level", "new_level", "action", "message"}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (Counts, error) {
	counts := Counts{}
	for i := range in.Lines {
		counts[in.Lines[i].Action]++
	}
	if path == "" {
		return counts, nil
	}
	w, err := results.Create(path, resultColumns...)
	if err != nil {
		return nil, err
	}
	defer w.Discard()
	for i := range in.Lines {
		l := &in.Lines[i]
		old, level := "", ""
		if l.HasOld {
			old = strconv.FormatFloat(l.Old, 'f', -1, 64)
		}
		if l.Valid {
			level = strconv.FormatInt(l.Units, 10)
		}
		wh := string(l.WarehouseID)
		if wh == "" {
			wh = l.Warehouse
		}
		if err := w.Write(in.File, l.Row, l.SKU, wh, string(l.VariantID), old, level, string(l.Action), l.Msg); err != nil {
			return nil, err
		}
	}
	return counts, w.Close()
}
