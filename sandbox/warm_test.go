package sandbox

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"lading/api/wire"
)

// A sandbox that starts listening counts what each account's Variants and
// Products listings hold, so that the first page asked is answered
// without counting them.
func TestWarmCountsListings(t *testing.T) {
	t.Parallel()
	for _, file := range []bool{false, true} {
		t.Run("file "+strconv.FormatBool(file), func(t *testing.T) {
			t.Parallel()
			opts := Options{}
			if file {
				opts.DBPath = t.TempDir() + "/sandbox.db"
			}
			e := newEnv(t, opts)
			e.mustIDs(wire.Products, product("Tee", "T-1", "T-2"), product("Cap", "C-1"))
			account, err := strconv.ParseInt(e.acct.ID, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if got := knownTotals(t, e.srv, account); got != [2]int{-1, -1} {
				t.Fatalf("before: variants and products counted %v, want neither", got)
			}
			if err := e.srv.warm(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := knownTotals(t, e.srv, account); got != [2]int{3, 2} {
				t.Errorf("after: variants and products counted %v, want [3 2]", got)
			}
		})
	}
}

// A client's first request, its token looked up in the database, leaves
// what the sandbox counted as it started as it was.
func TestFirstRequestKeepsCounts(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/sandbox.db"
	e := newEnv(t, Options{DBPath: path})
	e.mustIDs(wire.Products, product("Tee", "T-1", "T-2"), product("Cap", "C-1"))
	account, err := strconv.ParseInt(e.acct.ID, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Close()
	// Started again: the token is not known until a request uses it.
	s, err := New(Options{DBPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.srv = s
	e.ts = newTestHTTP(s)
	t.Cleanup(e.ts.Close)
	r := e.read(wire.ListPath(wire.Variants), map[string]any{wire.KeyPageSize: "1"}).expect(t, http.StatusOK)
	if total := r.meta()["total"]; total != "3" {
		t.Fatalf("the first page says %v variants, want 3", total)
	}
	if got := knownTotals(t, s, account); got != [2]int{3, 2} {
		t.Errorf("after the first request: variants and products counted %v, want [3 2]", got)
	}
}

// knownTotals are the counts of account's variants and products the
// sandbox holds for their listings' first pages, -1 where it holds none.
func knownTotals(t *testing.T, s *Server, account int64) (got [2]int) {
	t.Helper()
	err := s.st.read(context.Background(), func(tx *txn) error {
		for i, sp := range []*listSpec{variantSpec(), productSpec()} {
			q, aerr := parseListing(record{wire.KeyPageSize: "1", wire.KeyPageNum: "1"}, sp.resource, sp.cols)
			if aerr != nil {
				return aerr
			}
			l := newListing(sp.table, sp.base, account, q)
			n, ok := tx.st.pages.total(tx.st.pages.index(tx.version, l.key))
			got[i] = -1
			if ok {
				got[i] = n
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}
