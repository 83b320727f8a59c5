package shipments_test

import (
	"fmt"
	"testing"

	"lading/sandbox"
)

// BenchmarkPush posts a confirmation file of 500 fulfillments (2 lines,
// one parcel each) into a fresh account each iteration, and reports the
// requests it took: 2 reads of the fulfillments (250 a read), 5 writes
// (100 shipments a write), 2 reads of the open list to check the 500
// completed. A second push of the same file takes none.
func BenchmarkPush(b *testing.B) {
	const n = 500
	for b.Loop() {
		b.StopTimer()
		e := newEnv(b, sandbox.Options{})
		e.seed("A", "B")
		var rows [][]string
		for i, f := range e.orders(n, "A", 1, "B", 2) {
			rows = append(rows, []string{f.id, "", "A", "1", fmt.Sprint("T", i), "", "", "", ""},
				[]string{f.id, "", "B", "2", fmt.Sprint("T", i), "", "", "", ""})
		}
		file := e.file("ship.csv", header, rows...)
		b.StartTimer()
		rep, err := e.push(file)
		if err != nil || rep.Failed() > 0 || len(rep.Completed) != n {
			b.Fatalf("%v: %d failed, %d completed", err, rep.Failed(), len(rep.Completed))
		}
		again, err := e.push(file)
		if err != nil || again.Requests != 0 {
			b.Fatalf("second push: %v, %d requests", err, again.Requests)
		}
		b.ReportMetric(float64(rep.Reads), "reads/op")
		b.ReportMetric(float64(rep.Writes), "writes/op")
	}
}
