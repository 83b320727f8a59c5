package undo

import (
	"lading/engine"
	"lading/results"
)

// result is a record's line in the undo's results file.
type result struct {
	Run      string        `csv:"file"`
	Row      int           `csv:"row"`
	Resource string        `csv:"resource"`
	Key      string        `csv:"key"`
	ID       string        `csv:"id"`
	Action   engine.Status `csv:"action"`
	Message  string        `csv:"message"`
}

// writeResults writes one line per record of the run to path (none when
// path is "") and counts the lines by status; run names the run undone.
func writeResults(path, run string, lines []Line) (engine.Counts, error) {
	return engine.Count(lines), results.Write(path, func(yield func(result) bool) {
		for i := range lines {
			l := &lines[i]
			if !yield(result{Run: run, Row: l.Row, Resource: l.Resource, Key: l.Key, ID: l.RecordID, Action: l.Action, Message: l.Msg}) {
				return
			}
		}
	})
}
