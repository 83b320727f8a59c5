package shipments

import (
	"cmp"
	"strconv"

	"lading/engine"
	"lading/results"
)

// result is a row's line in the results file.
type result struct {
	File        string        `csv:"file"`
	Row         int           `csv:"row"`
	Fulfillment string        `csv:"fulfillment_id"`
	LineItem    string        `csv:"line_item_id"`
	SKU         string        `csv:"sku"`
	Quantity    string        `csv:"quantity"`
	Tracking    string        `csv:"tracking_number"`
	Action      engine.Status `csv:"action"`
	Message     string        `csv:"message"`
}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (engine.Counts, error) {
	counts := engine.Counts{}
	for i := range in.Lines {
		counts[in.Lines[i].Action]++
	}
	return counts, results.Write(path, func(yield func(result) bool) {
		for i := range in.Lines {
			l := &in.Lines[i]
			qty := ""
			if l.Quantity > 0 {
				qty = strconv.FormatInt(l.Quantity, 10)
			}
			if !yield(result{File: in.File, Row: l.Row, Fulfillment: cmp.Or(string(l.Fulfillment), l.FulfillmentRef),
				LineItem: cmp.Or(string(l.LineItem), l.LineItemRef), SKU: l.SKU, Quantity: qty, Tracking: l.Tracking,
				Action: l.Action, Message: l.Msg}) {
				return
			}
		}
	})
}
