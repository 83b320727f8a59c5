package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"lading/api/wire"
)

// Writes are copied into the database file beside them, by the
// checkpointer, once they have grown the log past walCopied: the log of a
// file-backed sandbox then starts again from its beginning, and its file
// stays about that size however many writes come (the store's own
// connections never copy it: without the checkpointer it would hold every
// write).
func TestCheckpointerKeepsTheLogShort(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	e := newEnv(t, Options{DBPath: db})
	var largest, last int64
	cut := 0 // writes after which the log's file was smaller
	for i := 0; cut < 2; i++ {
		if i == 400 {
			t.Fatalf("%d writes, the log %d bytes at most, cut %d times: want it copied and cut twice", i, largest, cut)
		}
		var recs []any
		for j := range wire.MaxWriteRecords {
			recs = append(recs, product(fmt.Sprint("P", i, "-", j), fmt.Sprint("A", i, "-", j), fmt.Sprint("B", i, "-", j)))
		}
		e.write(wire.Products, recs...).expect(t, 200)
		fi, err := os.Stat(db + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() < last {
			cut++
		}
		largest, last = max(largest, fi.Size()), fi.Size()
	}
	if largest > 2*walCopied {
		t.Errorf("the log grew to %d bytes: it was not copied past %d and started again", largest, walCopied)
	}
}
