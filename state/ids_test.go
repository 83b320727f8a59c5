package state

import (
	"context"
	"fmt"
	"maps"
	"testing"
)

// IDs finds the same ids for many keys (walking the scope) as for few
// (looking them up): those of the keys the scope holds, once each, in any
// order, whatever other keys and scopes hold.
func TestIDsOfManyKeys(t *testing.T) {
	t.Parallel()
	db := openTest(t)
	ctx := context.Background()
	if err := db.PutIDs(ctx, "a|product", manyIDs(0, 2*walkKeys, "a")); err != nil {
		t.Fatal(err)
	}
	if err := db.PutIDs(ctx, "b|product", manyIDs(0, 3*walkKeys, "b")); err != nil {
		t.Fatal(err)
	}
	var keys []string
	want := map[string]string{}
	for i := 3 * walkKeys; i > 0; i -= 2 { // descending, every other one, half of them past the scope's
		key := fmt.Sprintf("SKU-%05d", i)
		keys = append(keys, key, key)
		if i < 2*walkKeys {
			want[key] = fmt.Sprint("a", i)
		}
	}
	for _, n := range []int{len(keys), walkKeys} {
		wantN := map[string]string{}
		for _, k := range keys[:n] {
			if id, ok := want[k]; ok {
				wantN[k] = id
			}
		}
		got, err := db.IDs(ctx, "a|product", keys[:n])
		if err != nil || !maps.Equal(got, wantN) {
			t.Errorf("%d keys: %d ids, %v; want %d", n, len(got), err, len(wantN))
		}
	}
}
