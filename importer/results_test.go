package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"lading/catalog"
	"lading/engine"
	"lading/mapping"
	"lading/results/resultstest"
)

// resultsFixture is an input of two files whose rows are not in product
// order: an updated product A (rows 2 and 6), an invalid product B (a
// product row, a row with nothing but an error, and a variant in the
// joined file), a skipped row, a row the source could not read and a row
// with two errors and no product.
func resultsFixture() (*Input, *Plan) {
	ref := func(file string, line int) catalog.RowRef { return catalog.RowRef{File: file, Line: line} }
	name := mapping.Value{S: "New", Set: true}
	g := catalog.NewGrouper(nil)
	g.Add(ref("main.csv", 2), &mapping.Row{GroupKey: "A", Product: mapping.ProductFields{Name: name}, Variant: mapping.VariantFields{SKU: "A-1"},
		Options: []mapping.Option{{Name: "Size", Value: "S"}}})
	g.Add(ref("main.csv", 4), &mapping.Row{Skip: true, SkipReason: "image-only row"})
	g.Add(ref("main.csv", 5), &mapping.Row{Role: mapping.RoleProduct, GroupKey: "B", Product: mapping.ProductFields{Name: name}})
	g.Add(ref("main.csv", 6), &mapping.Row{GroupKey: "A", Variant: mapping.VariantFields{SKU: "A-2"},
		Options: []mapping.Option{{Name: "Size", Value: "M"}}})
	g.Add(ref("main.csv", 7), &mapping.Row{Errors: mapping.RowErrors{
		{Target: "group.key", Rule: "required"}, {Column: "cost", Value: "-1", Target: "variant.cost", Rule: "must not be negative"}}})
	g.Add(ref("main.csv", 8), &mapping.Row{Role: mapping.RoleVariant, GroupKey: "B", Errors: mapping.RowErrors{
		{Column: "weight", Value: "x", Target: "variant.weight", Rule: "is not a number"}}})
	g.Add(ref("join.csv", 2), &mapping.Row{Role: mapping.RoleVariant, GroupKey: "B", Variant: mapping.VariantFields{SKU: "B-1"}})
	res := g.Finish()
	// A row the source could not read, as Read adds it.
	res.Errors = append(res.Errors, catalog.RowError{Row: ref("main.csv", 3), Target: "row", Rule: "has an unclosed quote"})
	in := &Input{Files: []string{"dir/main.csv", "dir/join.csv"}, Result: res}
	plan := (&Planner{Live: newLive(), Mode: ModeUpsert}).Plan(res.Products)
	ppA := plan.Products[0]
	ppA.Live, ppA.Action = &LiveProduct{ID: "10"}, engine.Updated
	ppA.setChanges([]Change{{Field: "name", From: "Old", To: "New"}}, false)
	ppA.variants()[0].Live = &LiveVariant{ID: "11"}
	ppA.variants()[0].setAction(engine.Unchanged)
	return in, plan
}

func TestResultsOneLinePerRowInFileOrder(t *testing.T) {
	t.Parallel()
	in, plan := resultsFixture()
	bErr := `not written: main.csv row 8, column "weight", value "x": variant.weight is not a number`
	want := []string{
		"file,row,product_key,sku,action,product_id,variant_id,message",
		`main.csv,2,A,A-1,updated,10,11,"product: name ""Old"" → ""New"""`,
		`main.csv,3,,,failed,,,main.csv row 3: row has an unclosed quote`,
		`main.csv,4,,,skipped,,,image-only row`,
		`main.csv,5,B,,failed,,,"` + strings.ReplaceAll(bErr, `"`, `""`) + `"`,
		`main.csv,6,A,A-2,created,10,,`,
		`main.csv,7,,,failed,,,"main.csv row 7: group.key required; main.csv row 7, column ""cost"", value ""-1"": variant.cost must not be negative"`,
		`main.csv,8,B,,failed,,,"main.csv row 8, column ""weight"", value ""x"": variant.weight is not a number"`,
		`join.csv,2,B,B-1,failed,,,"` + strings.ReplaceAll(bErr, `"`, `""`) + `"`,
	}
	path := filepath.Join(t.TempDir(), "results.csv")
	counts, err := writeResults(path, in, plan, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), b)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
	wantCounts := engine.Counts{engine.Updated: 1, engine.Created: 1, engine.Skipped: 1, engine.Failed: 5}
	if len(counts) != len(wantCounts) {
		t.Errorf("counts %v, want %v", counts, wantCounts)
	}
	for a, n := range wantCounts {
		if counts[a] != n {
			t.Errorf("counts[%s] = %d, want %d", a, counts[a], n)
		}
	}
}

// The cells a results line gives itself are those gocsv makes of it, with
// the image columns and without.
func TestResultLineCellsAreGocsvs(t *testing.T) {
	t.Parallel()
	plain := []ResultLine{
		{File: "main.csv", Row: 2, ProductKey: "A", SKU: "A-1", Action: engine.Updated, ProductID: "10", VariantID: "11", Message: "price: 1 → 2"},
		{File: "main.csv", Row: 1000001, SKU: "=B", Action: engine.Invalid, Message: `cost "x" is not a number, row 7`},
		{},
	}
	resultstest.CheckCells(t, plain)
	images := []resultLine{{ResultLine: plain[0], Image: "https://example.com/a.jpg", FileID: "99"}, {ResultLine: plain[1]}, {}}
	resultstest.CheckCells(t, images)
}

func TestResultsCountsWithoutAFile(t *testing.T) {
	in, plan := resultsFixture()
	dir := t.TempDir()
	t.Chdir(dir)
	counts, err := writeResults("", in, plan, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := counts[engine.Failed] + counts[engine.Created] + counts[engine.Updated] + counts[engine.Skipped]; n != 8 {
		t.Errorf("counted %d rows (%v), want 8", n, counts)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("wrote %d files", len(es))
	}
}

// The plan file is what json.MarshalIndent made of the whole plan when it
// was built in memory.
func TestEncodePlanAsMarshalIndent(t *testing.T) {
	t.Parallel()
	_, full := resultsFixture()
	for _, plan := range []*Plan{{Mode: ModeCreateOnly}, full} {
		whole := PlanFile{Mode: plan.Mode, Products: []PlannedProduct{}}
		for _, pp := range plan.Products {
			whole.Products = append(whole.Products, planProduct(pp))
		}
		want, err := json.MarshalIndent(whole, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		if err := encodePlan(w, plan); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if got := buf.String(); got != string(want)+"\n" {
			t.Errorf("%d products:\n got %s\nwant %s", len(plan.Products), got, want)
		}
	}
}

// ReadPlan gives back the plan writePlan wrote, every product, variant and
// change in it.
func TestReadPlan(t *testing.T) {
	_, full := resultsFixture()
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := writePlan(path, full); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPlan(path)
	if err != nil {
		t.Fatal(err)
	}
	want := PlanFile{Mode: full.Mode}
	for _, pp := range full.Products {
		want.Products = append(want.Products, planProduct(pp))
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", *got, want)
	}
	if _, err := ReadPlan(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("reading a plan that is not there: no error")
	}
}

// When the products' rows come one product after the other, the other
// rows are merged in between them.
func TestResultsMergeRowsOfProductsInOrder(t *testing.T) {
	t.Parallel()
	ref := func(line int) catalog.RowRef { return catalog.RowRef{File: "in.csv", Line: line} }
	name := mapping.ProductFields{Name: mapping.Value{S: "N", Set: true}}
	g := catalog.NewGrouper(nil)
	g.Add(ref(2), &mapping.Row{Role: mapping.RoleProduct, GroupKey: "A", Product: name})
	g.Add(ref(3), &mapping.Row{Role: mapping.RoleVariant, GroupKey: "A", Variant: mapping.VariantFields{SKU: "A-1"}, Options: []mapping.Option{{Name: "Size", Value: "S"}}})
	g.Add(ref(4), &mapping.Row{Skip: true, SkipReason: "image-only row"})
	g.Add(ref(5), &mapping.Row{Role: mapping.RoleProduct, GroupKey: "A", Product: name})
	g.Add(ref(6), &mapping.Row{Role: mapping.RoleVariant, GroupKey: "A", Variant: mapping.VariantFields{SKU: "A-2"}, Options: []mapping.Option{{Name: "Size", Value: "M"}}})
	g.Add(ref(7), &mapping.Row{Errors: mapping.RowErrors{{Target: "group.key", Rule: "required"}}})
	g.Add(ref(8), &mapping.Row{GroupKey: "B", Product: name, Variant: mapping.VariantFields{SKU: "B-1"}})
	g.Add(ref(9), &mapping.Row{Skip: true, SkipReason: "image-only row"})
	res := g.Finish()
	in := &Input{Files: []string{"in.csv"}, Result: res}
	plan := (&Planner{Live: newLive(), Mode: ModeUpsert}).Plan(res.Products)
	if !newFileOrder(in.Files).productsInOrder(plan.Products) {
		t.Fatal("products in order: not seen as such")
	}
	var got []string
	err := eachResult(in, plan, func(l *resultLine) error {
		got = append(got, fmt.Sprintf("%d %s %s %s", l.Row, l.ProductKey, l.SKU, l.Action))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2 A  created", "3 A A-1 created", "4   skipped", "5 A  created", "6 A A-2 created",
		"7   failed", "8 B B-1 created", "9   skipped"}
	if !slices.Equal(got, want) {
		t.Errorf("lines\n%q\nwant\n%q", got, want)
	}

	// The fixture of the test above is out of order.
	in, plan = resultsFixture()
	if newFileOrder(in.Files).productsInOrder(plan.Products) {
		t.Error("products out of order: seen as in order")
	}
}

// Products whose variants have no plans of their own (created, or found
// equal to the account's: one action for all) give the same results file,
// plan file and counts as once their plans are made.
func TestPlainPlansReadAsMade(t *testing.T) {
	t.Parallel()
	ref := func(line int) catalog.RowRef { return catalog.RowRef{File: "in.csv", Line: line} }
	name := mapping.Value{S: "N", Set: true}
	g := catalog.NewGrouper(nil)
	for i, key := range []string{"new", "new", "same", "same", "nosku"} {
		sku := fmt.Sprintf("%s-%d", key, i)
		if key == "nosku" {
			sku = ""
		}
		g.Add(ref(i+2), &mapping.Row{GroupKey: key, Product: mapping.ProductFields{Name: name}, Variant: mapping.VariantFields{SKU: sku},
			Options: []mapping.Option{{Name: "Size", Value: fmt.Sprint(i)}}})
	}
	res := g.Finish()
	in := &Input{Files: []string{"in.csv"}, Result: res}
	write := func(plain bool) (string, string, engine.Counts) {
		plan := (&Planner{Live: newLive(), Mode: ModeUpsert}).Plan(res.Products)
		same := &LiveProduct{ID: "20", first: 0, same: &sameIDs{refs: make([]uint32, 2), ids: &idPack{}}}
		same.same.refs[0], same.same.refs[1] = same.same.ids.add("21"), same.same.ids.add("22")
		plan.Products[1].unchanged(same)
		if plan.Products[0].plain == 0 || plan.Products[1].plain == 0 || plan.Products[2].plain != 0 {
			t.Fatalf("plain: %d %d %d; want the created and the equal product plain, not the one without SKU",
				plan.Products[0].plain, plan.Products[1].plain, plan.Products[2].plain)
		}
		if !plain {
			for _, pp := range plan.Products {
				pp.variants()
			}
		}
		dir := t.TempDir()
		results, planFile := filepath.Join(dir, "results.csv"), filepath.Join(dir, "plan.json")
		counts, err := writeResults(results, in, plan, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := writePlan(planFile, plan); err != nil {
			t.Fatal(err)
		}
		r, _ := os.ReadFile(results)
		p, _ := os.ReadFile(planFile)
		_, variants := plan.Summary()
		for a, n := range counts {
			variants[a+" rows"] = n
		}
		return string(r), string(p), variants
	}
	r1, p1, c1 := write(true)
	r2, p2, c2 := write(false)
	if r1 != r2 {
		t.Errorf("results file:\n%s\nonce the plans are made:\n%s", r1, r2)
	}
	if p1 != p2 {
		t.Errorf("plan file:\n%s\nonce the plans are made:\n%s", p1, p2)
	}
	if !reflect.DeepEqual(c1, c2) || c1[engine.Created] != 3 || c1[engine.Unchanged] != 2 {
		t.Errorf("counts %v, once the plans are made %v; want 3 created, 2 unchanged", c1, c2)
	}
	if !strings.Contains(r1, "in.csv,4,same,same-2,unchanged,20,21,") {
		t.Errorf("results file:\n%s\nwant the first variant of the equal product with its id", r1)
	}
}
