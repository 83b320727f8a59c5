package sheet

import (
	"errors"
	"path/filepath"
	"strconv"
	"testing"
)

// The writer does the steps in the order sent; after a step fails it
// does no more, the error comes back by close at the latest (never
// blocking the caller), and the writer has stopped.
func TestPipe(t *testing.T) {
	t.Parallel()
	const steps = 5*pipeBatches*pipeBatch + 3 // the caller fills batches faster than they come back
	boom := errors.New("boom")
	for _, failAt := range []int{-1, 0, 1, pipeBatch - 1, pipeBatch, 3*pipeBatch + 5, steps - 1} {
		t.Run(strconv.Itoa(failAt), func(t *testing.T) {
			t.Parallel()
			p := newPipe(1)
			var done []int // written by the writer alone, read after close
			var err error
			for i := 0; i < steps && err == nil; i++ {
				err = p.do(func() error {
					if done = append(done, i); i == failAt {
						return boom
					}
					return nil
				})
			}
			if cerr := p.close(); err == nil {
				err = cerr
			}
			select {
			case <-p.done:
			default:
				t.Fatal("close returned before the writer stopped")
			}
			want := steps
			if failAt >= 0 {
				want = failAt + 1
				if !errors.Is(err, boom) {
					t.Errorf("err = %v, want the failed step's", err)
				}
			} else if err != nil {
				t.Errorf("err = %v", err)
			}
			if len(done) != want {
				t.Fatalf("%d steps done, want %d", len(done), want)
			}
			for i, n := range done {
				if n != i {
					t.Fatalf("step %d done as the %dth: out of order", n, i+1)
				}
			}
			if err := p.close(); failAt >= 0 && !errors.Is(err, boom) || failAt < 0 && err != nil {
				t.Errorf("a second close: %v", err)
			}
		})
	}
}

// Discard stops the writer of a workbook streaming its rows.
func TestDiscardStopsTheWriter(t *testing.T) {
	t.Parallel()
	w, err := Create(filepath.Join(t.TempDir(), "x.xlsx"), Options{}, Sheet{Name: "Items", Columns: []Column{{Header: "SKU"}, {Header: "Qty", Kind: Integer}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 * pipeBatch {
		if err := w.Row(0, "SKU-"+strconv.Itoa(i), strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	w.Discard()
	select {
	case <-w.out.(*book).pipe.done:
	default:
		t.Fatal("the writer still runs after Discard")
	}
}
