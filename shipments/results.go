package shipments

import (
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
		f := string(l.Fulfillment)
		if f == "" {
			f = l.FulfillmentRef
		}
		item := string(l.LineItem)
		if item == "" {
			item = l.LineItemRef
		}
		qty := ""
		if l.Quantity > 0 {
			qty = strconv.FormatInt(l.Quantity, 10)
		}
		if err := w.Write(in.File, l.Row, f, item, l.SKU, qty, l.Tracking, string(l.Action), l.Msg); err != nil {
			return nil, err
		}
	}
	return counts, w.Close()
}
