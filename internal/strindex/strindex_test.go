package strindex

import (
	"fmt"
	"maps"
	"testing"
)

// The index finds what a map would, as it grows from a small table, and
// keeps the first of things that share a text.
func TestIndexAsAMap(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7, 100, 5000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			var texts []string
			x := New(min(n, 3), func(k int32) string { return texts[k] })
			want := map[string]int32{}
			for k := range n {
				text := fmt.Sprintf("SKU-%d", k%(n/2+1)) // every text twice, past the middle
				texts = append(texts, text)
				first, ok := want[text]
				got, added := x.Add(int32(k))
				if added == ok || (!added && got != first) {
					t.Fatalf("Add(%d) (%q) = %d, %v; want %d, %v", k, text, got, added, first, !ok)
				}
				if !ok {
					want[text] = int32(k)
				}
			}
			if x.Len() != len(want) {
				t.Errorf("Len = %d, want %d", x.Len(), len(want))
			}
			for text, k := range maps.All(want) {
				if got := x.Find(text); got != k {
					t.Errorf("Find(%q) = %d, want %d", text, got, k)
				}
			}
			for _, missing := range []string{"", "SKU-", fmt.Sprintf("SKU-%d", n), "sku-0"} {
				if got := x.Find(missing); got != -1 {
					t.Errorf("Find(%q), not indexed, = %d", missing, got)
				}
			}
		})
	}
}

func ExampleIndex() {
	skus := []string{"TEE-S", "TEE-M", "TEE-S"}
	x := New(len(skus), func(k int32) string { return skus[k] })
	for k := range skus {
		if first, added := x.Add(int32(k)); !added {
			fmt.Printf("row %d repeats the SKU of row %d\n", k, first)
		}
	}
	fmt.Println(x.Find("TEE-M"), x.Find("TEE-L"))
	// Output:
	// row 2 repeats the SKU of row 0
	// 1 -1
}

// A look-up reads the text of a thing in the table only where 8 bits of
// its hash match the text looked for: looking up texts not indexed in a
// half-full table reads almost none.
func TestFindReadsFewTexts(t *testing.T) {
	t.Parallel()
	const n = 1 << 14
	texts := make([]string, n)
	reads := 0
	x := New(n, func(k int32) string { reads++; return texts[k] })
	for k := range texts {
		texts[k] = fmt.Sprintf("SKU-%d", k)
		x.Add(int32(k))
	}
	reads = 0
	for k := range n {
		if got := x.Find(fmt.Sprintf("OTHER-%d", k)); got != -1 {
			t.Fatalf("Find of a text not indexed = %d", got)
		}
	}
	if reads > n/20 {
		t.Errorf("%d look-ups of texts not indexed read %d texts; want under %d", n, reads, n/20)
	}
}

// BenchmarkIndex1M indexes a million SKUs, as an import's scan does, and
// looks each up, and a million texts not indexed: ns/op is one Add and
// two Finds.
func BenchmarkIndex1M(b *testing.B) {
	const n = 1 << 20
	texts := make([]string, n)
	for k := range texts {
		texts[k] = fmt.Sprintf("SH%07d-RED-M", k*7919%n) // their bytes far apart, in no order
	}
	others := make([]string, n)
	for k := range others {
		others[k] = fmt.Sprintf("XX%07d-RED-M", k)
	}
	b.ResetTimer()
	for i := range b.N {
		if i%n == 0 {
			b.StopTimer()
			x := New(n, func(k int32) string { return texts[k] })
			b.StartTimer()
			benchIndex = x
		}
		k := int32(i % n)
		benchIndex.Add(k)
		if benchIndex.Find(texts[k]) != k || benchIndex.Find(others[k]) != -1 {
			b.Fatal("look-up failed")
		}
	}
}

var benchIndex *Index
