package state

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// A scope of entries is what its last write made it, apart from other
// scopes; one damaged on disk is an error before any entry is given.
func TestEntries(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ctx := context.Background()
	put := func(scope string, kv ...string) {
		t.Helper()
		err := db.ReplaceEntries(ctx, scope, func(add func(k, v []byte)) {
			for i := 0; i+1 < len(kv); i += 2 {
				add([]byte(kv[i]), []byte(kv[i+1]))
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	read := func(scope string) (string, error) {
		var got string
		err := db.EachEntry(ctx, scope, func(k, v []byte) { got += fmt.Sprintf("%s=%s;", k, v) })
		return got, err
	}
	put("a|marks", "k2", "v2", "k1", "", "k3", "v 3")
	put("b|marks", "x", "y")
	put("a|marks", "k2", "w2", "k4", "v4")
	for scope, want := range map[string]string{"a|marks": "k2=w2;k4=v4;", "b|marks": "x=y;", "c|marks": ""} {
		if got, err := read(scope); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", scope, got, err, want)
		}
	}
	if _, err := db.sql.ExecContext(ctx, `UPDATE entries SET data = x'02016b05' WHERE scope = 'b|marks'`); err != nil {
		t.Fatal(err)
	}
	if got, err := read("b|marks"); !errors.Is(err, errBadPack) || got != "" {
		t.Errorf("damaged scope: %q, %v; want nothing and errBadPack", got, err)
	}
}

// A scope of many entries is written in parts and read back whole, in
// order; a damaged part fails the read before any entry is given.
func TestEntriesInParts(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ctx := context.Background()
	const n = 3 * partSize / 100 // about three parts
	v := make([]byte, 80)
	err := db.ReplaceEntries(ctx, "big", func(add func(k, v []byte)) {
		for i := range n {
			add(fmt.Appendf(nil, "key-%07d", i), v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var parts int
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM entries WHERE scope = 'big'`).Scan(&parts); err != nil || parts < 3 {
		t.Fatalf("%d parts, %v; want 3 or more", parts, err)
	}
	next := 0
	err = db.EachEntry(ctx, "big", func(k, _ []byte) {
		if string(k) != fmt.Sprintf("key-%07d", next) {
			t.Fatalf("entry %d is %s", next, k)
		}
		next++
	})
	if err != nil || next != n {
		t.Errorf("%d entries, %v; want %d", next, err, n)
	}
	if _, err := db.sql.ExecContext(ctx, `UPDATE entries SET data = x'05' WHERE scope = 'big' AND part = 1`); err != nil {
		t.Fatal(err)
	}
	seen := 0
	if err := db.EachEntry(ctx, "big", func(k, v []byte) { seen++ }); !errors.Is(err, errBadPack) || seen != 0 {
		t.Errorf("damaged second part: %d entries given, %v; want none and errBadPack", seen, err)
	}
}
