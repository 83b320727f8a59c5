// Package summary says how a job went, for people, in the words both the
// command line prints and lading ui shows: rows (or records, images)
// counted by status in one order, and the time requests take at a rate.
package summary

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"lading/api"
	"lading/engine"
	"lading/importer"
	"lading/plural"
	"lading/shipments"
	"lading/stock"
	"lading/undo"
)

// Order is the order in which summaries count rows (and records) by
// status: what was done, what a dry run would do, what was left, what
// failed.
var Order = []engine.Status{engine.Created, engine.ToCreate, engine.Updated, engine.ToUpdate,
	engine.Archived, engine.ToArchive, engine.Deleted, engine.ToDelete,
	importer.Uploaded, importer.ToUpload,
	stock.Sent, stock.ToSend, shipments.Posted, shipments.ToPost, shipments.AlreadyShipped,
	undo.Restored, undo.ToRestore,
	engine.Unchanged, engine.Skipped, engine.Unknown, engine.Refused, engine.Conflict, engine.Invalid, engine.Failed}

// Count is how many rows have a status.
type Count struct {
	Status engine.Status
	N      int
}

// Counts are the statuses of cs that counted any row, in Order (a status
// Order does not know comes after those it knows, by name).
func Counts(cs engine.Counts) []Count {
	var out []Count
	for _, s := range slices.SortedFunc(maps.Keys(cs), compare) {
		if n := cs[s]; n > 0 {
			out = append(out, Count{s, n})
		}
	}
	return out
}

// compare orders statuses as Order does.
func compare(a, b engine.Status) int {
	rank := func(s engine.Status) int {
		if i := slices.Index(Order, s); i >= 0 {
			return i
		}
		return len(Order)
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}

// Text is cs for a summary line: "3 created, 1 failed", or "none".
func Text(cs engine.Counts) string {
	var parts []string
	for _, c := range Counts(cs) {
		parts = append(parts, fmt.Sprintf("%d %s", c.N, c.Status))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Of is the rows of a run as the history keeps them (status: count).
func Of(rows map[string]int) engine.Counts {
	cs := engine.Counts{}
	for s, n := range rows {
		cs[engine.Status(s)] = n
	}
	return cs
}

// Duration is about how long requests take at rate requests a second,
// to the second.
func Duration(requests int, rate float64) time.Duration {
	if rate <= 0 {
		return 0
	}
	return time.Duration(float64(requests) / rate * float64(time.Second)).Round(time.Second)
}

// Requests is how many write requests n records take, size to a
// request.
func Requests(n, size int) int {
	if size <= 0 {
		return n
	}
	return (n + size - 1) / size
}

// Traffic is a job's requests for people: "3 requests (1 write, 2 reads;
// 0 throttled) in 1.2s".
func Traffic(t api.Traffic, elapsed time.Duration) string {
	return fmt.Sprintf("%s (%s, %s; %d throttled) in %s", plural.Count(t.Requests, "request"), plural.Count(t.Writes, "write"),
		plural.Count(t.Reads, "read"), t.Throttled, elapsed.Round(time.Millisecond))
}
