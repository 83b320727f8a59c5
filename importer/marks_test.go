package importer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/source"
	"lading/source/sourcetest"
)

var testSum = contentSum{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// A mark reads back as it was written; a mark cut short, or with bytes
// after it, reads as none.
func TestMarkRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name            string
		product         api.ID
		variants, files []api.ID
		ok              bool
	}{
		{"decimal ids", "101", []api.ID{"201", "202", "203"}, []api.ID{"301"}, true},
		{"other ids", "p-1", []api.ID{"0042", "v 2"}, nil, true},
		{"no variants", "101", nil, nil, false},
		{"an empty id", "101", []api.ID{"201", ""}, nil, false},
		{"no product", "", []api.ID{"201"}, nil, false},
	} {
		b, ok := writeMark(nil, 9827, testSum, markFilesKnown, tc.product, tc.variants, tc.files)
		if ok != tc.ok {
			t.Errorf("%s: written %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		mk, read := parseMark(b)
		if !read || mk.day != 9827 || !bytes.Equal(mk.sum, testSum[:]) || mk.flags != markFilesKnown ||
			!slices.Equal(unpack(mk.product), []api.ID{tc.product}) || !slices.Equal(unpack(mk.variants), tc.variants) || !slices.Equal(unpack(mk.files), tc.files) {
			t.Errorf("%s: read back %v %+v", tc.name, read, mk)
		}
		for cut := range len(b) {
			if _, ok := parseMark(b[:cut]); ok {
				t.Errorf("%s: the first %d of %d bytes read as a mark", tc.name, cut, len(b))
			}
		}
		if _, ok := parseMark(append(b, 0)); ok {
			t.Errorf("%s: a byte more read as a mark", tc.name)
		}
	}
}

// unpack are the ids packed in raw, nil for none.
func unpack(raw []byte) []api.ID {
	var out []api.ID
	var p idPack
	eachPackedID(raw, func(id []byte) { out = append(out, p.at(p.addPacked(id))) })
	return out
}

// Whatever the state holds, reading it as a mark never fails the import:
// it is a whole mark, whose ids account for every byte of it and which
// reads the same written again, or none.
func FuzzParseMark(f *testing.F) {
	b, _ := writeMark(nil, 9827, testSum, 3, "101", []api.ID{"201", "v-2"}, []api.ID{"301"})
	f.Add(b)
	f.Add(b[:len(b)-1])
	f.Add([]byte{markVersion})
	f.Fuzz(func(t *testing.T, b []byte) {
		mk, ok := parseMark(b)
		if !ok {
			return
		}
		variants, files := unpack(mk.variants), unpack(mk.files)
		if len(variants) != mk.nVariants || len(files) != mk.nFiles || len(variants) == 0 || len(unpack(mk.product)) != 1 {
			t.Errorf("mark %x read as %+v", b, mk)
		}
		again, ok := writeMark(nil, mk.day, contentSum(mk.sum), mk.flags, unpack(mk.product)[0], variants, files)
		mk2, read := parseMark(again)
		if !ok || !read || mk2.day != mk.day || !bytes.Equal(mk2.sum, mk.sum) || mk2.flags != mk.flags ||
			!slices.Equal(unpack(mk2.product), unpack(mk.product)) || !slices.Equal(unpack(mk2.variants), variants) || !slices.Equal(unpack(mk2.files), files) {
			t.Errorf("mark %x written again reads as %+v", b, mk2)
		}
	})
}

// A SKU changed in the account unsettles the file's product that has it,
// whatever live product the change was of, and no other; the product is
// read by its mark's id (a hint) only if the change was of that product.
func TestUnsettleSKUs(t *testing.T) {
	t.Parallel()
	m := templateMapping(t, "generic")
	path := filepath.Join(t.TempDir(), "in.csv")
	csv := "product_key,product_name,sku,option1_name,option1_value\n" +
		"a,A,A-1,Size,S\na,,A-2,Size,M\nb,B,B-1,Size,S\nc,C,C-1,Size,S\n"
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := Read(context.Background(), m, path, source.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newScan(Want{Products: in.Products, Marks: &Marks{Settled: 3}}, nil, newLive())
	s.hints = map[int32]uint32{}
	for i := range s.found {
		s.found[i] = scanFound{settled: true, id: s.ids.add(api.ID(fmt.Sprint(100 + i)))}
	}
	s.unsettleSKUs(map[string]api.ID{"A-2": "100", "B-1": "999", "Z-9": ""})
	if got := []bool{s.found[0].settled, s.found[1].settled, s.found[2].settled}; !slices.Equal(got, []bool{false, false, true}) {
		t.Errorf("settled after A-2 and B-1 changed: %v, want products a and b unsettled", got)
	}
	if len(s.hints) != 1 || s.ids.at(s.hints[0]) != "100" {
		t.Errorf("hints %v: want product a read as 100 alone (B-1 changed on another product)", s.hints)
	}
	if s.w.Marks.Settled != 1 {
		t.Errorf("%d settled, want 1", s.w.Marks.Settled)
	}
}

// The mark of a product the snapshot found equal, its variants' ids
// copied as packed, is the mark written of the same ids read back, and
// reads back as them.
func TestSameMarkIsWrittenMark(t *testing.T) {
	t.Parallel()
	m := templateMapping(t, "generic")
	path := filepath.Join(t.TempDir(), "in.csv")
	csv := "product_key,product_name,sku,option1_name,option1_value\na,A,A-1,Size,S\na,,A-2,Size,M\n"
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := Read(context.Background(), m, path, source.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := &idPack{}
	variants := []api.ID{"100000014", "var-2"}
	same := &sameIDs{refs: []uint32{ids.add(variants[0]), ids.add(variants[1])}, ids: ids}
	lp := &LiveProduct{ID: "77", FileIDs: []api.ID{"5", "f-6"}, FilesKnown: true, same: same}
	pp := &ProductPlan{P: in.Products[0], Live: lp}
	pp.setPlain(engine.Unchanged)
	sum := contentSum{1, 2, 3}
	got, ok := appendSameMark(nil, 9, sum, pp)
	want, _ := writeMark(nil, 9, sum, markFilesKnown, "77", variants, lp.FileIDs)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("mark %x, %v; want %x", got, ok, want)
	}
	if mk, ok := parseMark(got); !ok || !slices.Equal(unpack(mk.variants), variants) {
		t.Errorf("mark read back as %+v, %v", mk, ok)
	}
	pp.setPlain(engine.Updated)
	if _, ok := appendSameMark(nil, 9, sum, pp); ok {
		t.Error("a mark of a product whose variants are updated")
	}
}

// The products' sums, made on goroutines of their own, are of the rows'
// whole data: the snapshot lets go of the data of the products it found
// equal only once every sum is made (under -race, a release that does
// not wait is reported; without, its sums come out of the SKUs alone).
func TestSumsBeforeRelease(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "in.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sourcetest.GenerateCatalogCSV(f, 3*sumChunk, 2); err != nil {
		t.Fatal(err)
	}
	f.Close()
	in, err := Read(context.Background(), templateMapping(t, "generic"), path, source.Limits{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := newMarkSet(nil, "a", in.Products, nil, time.Now(), false)
	want.summedAll()
	m := newMarkSet(nil, "a", in.Products, nil, time.Now(), false)
	s := newScan(Want{Products: in.Products, Marks: m, ReleaseEqual: true}, nil, newLive())
	for i, p := range in.Products {
		s.found[i] = scanFound{id: 1, equal: int32(len(p.Variants))}
	}
	s.releaseEqual()
	for i := range in.Products {
		if got := m.sum(int32(i)); got != want.sums[i] {
			t.Fatalf("product %d summed as %x after its data was let go of, want %x", i, got, want.sums[i])
		}
	}
}
