package importer

import (
	"fmt"
	"testing"
)

// The SKU index finds every variant it was given by its SKU, the first of
// two with one SKU, and no other.
func TestSKUIndex(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			skus := make([]string, n)
			for i := range skus {
				skus[i] = fmt.Sprintf("SKU-%d", i)
			}
			if n > 1 {
				skus[n-1] = skus[0] // a SKU twice: the first is kept
			}
			x := newSKUIndex(n, func(k int32) string { return skus[k] })
			for k := range skus {
				x.add(int32(k))
			}
			for k, sku := range skus {
				want := int32(k)
				if n > 1 && k == n-1 {
					want = 0
				}
				if got := x.find(sku); got != want {
					t.Errorf("find(%q) = %d, want %d", sku, got, want)
				}
			}
			for _, missing := range []string{"", "SKU-", fmt.Sprintf("SKU-%d", n), "sku-0"} {
				if got := x.find(missing); got != -1 {
					t.Errorf("find(%q) = %d, want -1", missing, got)
				}
			}
		})
	}
}
