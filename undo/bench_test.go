package undo_test

import (
	"context"
	"testing"

	"lading/engine"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/undo"
)

// BenchmarkUndoImport10k measures the requests of undoing an import of
// 10,000 variants (1,000 products of 10) into an account that holds 2,000
// more, and of undoing an import that changed the cost of those 10,000:
// the account is read in a few lookups of 250 products, and the undo
// writes 100 records a request (products deleted with their variants;
// variants' costs set back).
//
//	go test ./undo/ -run '^$' -bench UndoImport10k -benchtime 1x
func BenchmarkUndoImport10k(b *testing.B) {
	for b.Loop() {
		e := &env{sandboxtest.New(b, sandbox.Options{})}
		header, seed := catalogRows(b, 200, 10)
		e.importCatalog(e.writeCatalog("seed.csv", header, seed))
		_, rows := catalogRows(b, 1200, 10)
		rows = rows[2000:] // products 201 to 1,200: new
		created := e.importCatalog(e.writeCatalog("new.csv", header, rows))
		for _, r := range rows {
			r[col(header, "cost")] = "99"
		}
		changed := e.importCatalog(e.writeCatalog("changed.csv", header, rows))
		b.Logf("imports: created in %v, changed in %v", created.Elapsed, changed.Elapsed)
		if created.Variants[engine.Created] != 10000 || changed.Variants[engine.Updated] != 10000 {
			b.Fatalf("imports: %v, %v", created.Variants, changed.Variants)
		}
		for _, tc := range []struct {
			name        string
			run         int64
			done        engine.Status
			reads, writ int64
		}{
			{"updated", changed.RunID, undo.Restored, 5, 100},
			{"created", created.RunID, engine.Deleted, 5, 10},
		} {
			rep, err := e.undo(context.Background(), tc.run)
			if err != nil || rep.Failed() > 0 {
				b.Fatalf("undo of the %s: %v %v", tc.name, rep.Rows, err)
			}
			if rep.Reads != tc.reads || rep.Writes != tc.writ {
				b.Errorf("undo of the %s: %d reads, %d writes; want %d and %d", tc.name, rep.Reads, rep.Writes, tc.reads, tc.writ)
			}
			b.ReportMetric(float64(rep.Reads), "reads/undo-"+tc.name)
			b.ReportMetric(float64(rep.Writes), "writes/undo-"+tc.name)
			b.Logf("undo of the 10,000 variants %s: %v, %d reads, %d writes, %v", tc.name, rep.Rows, rep.Reads, rep.Writes, rep.Elapsed)
		}
	}
}
