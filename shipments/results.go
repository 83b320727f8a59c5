package shipments

import (
	"cmp"
	"strconv"

	"lading/results"
)

// resultColumns are the results file's columns after file and row.
var resultColumns = []string{"fulfillment_id", "line_item_id", "sku", "quantity", "tracking_number", "action", "message"}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (Counts, error) {
	counts := Counts{}
	for i := range in.Lines {
		counts[in.Lines[i].Action]++
	}
	err := results.WriteLines(path, in.File, resultColumns, in.Lines, func(l *Line) (int, []string) {
		qty := ""
		if l.Quantity > 0 {
			qty = strconv.FormatInt(l.Quantity, 10)
		}
		return l.Row, []string{cmp.Or(string(l.Fulfillment), l.FulfillmentRef), cmp.Or(string(l.LineItem), l.LineItemRef),
			l.SKU, qty, l.Tracking, string(l.Action), l.Msg}
	})
	if err != nil {
		return nil, err
	}
	return counts, nil
}
