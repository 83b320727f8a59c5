package catalog

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"lading/internal/arena"
	"lading/mapping"
)

// group runs rows (cells in header order) of file through the mapping src
// and a grouper; row i is line i+2 (after the header).
func group(t *testing.T, src string, header []string, rows ...[]string) *Result {
	t.Helper()
	m, err := mapping.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Compile("in.csv", header)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGrouper(m)
	var r mapping.Row
	for i, cells := range rows {
		p.Eval(cells, &r)
		g.Add(RowRef{File: "in.csv", Line: i + 2}, &r)
	}
	return g.Finish()
}

func byKey(res *Result) map[string]*Product {
	out := map[string]*Product{}
	for _, p := range res.Products {
		out[p.Key] = p
	}
	return out
}

func errText(p *Product) string {
	var s []string
	for _, e := range p.Errs() {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}

const keyMapping = `
group:
  key: key
product:
  name: name
  tags: {column: tags, split: "|"}
variant:
  sku: sku
  weight: weight
  stock: stock
options:
  pairs:
    - {name: o1n, value: o1v}
    - {name: o2n, value: o2v}
tiers:
  prefix: "tier:"
`

var keyHeader = []string{"key", "name", "tags", "sku", "weight", "stock", "o1n", "o1v", "o2n", "o2v", "tier:Retail"}

func TestGroupNonContiguous(t *testing.T) {
	t.Parallel()
	res := group(t, keyMapping, keyHeader,
		[]string{"A", "Alpha", "x|y", "A-S", "1", "5", "Size", "S", "", "", "10"},
		[]string{"B", "Beta", "", "B-1", "", "", "", "", "", "", ""},
		[]string{"A", "", "", "A-M", "", "", "", "M", "", "", "11"},
		[]string{"A", "Alpha", "x|y", "A-L", "", "", "Size", "L", "", "", ""},
	)
	if len(res.Products) != 2 || res.Rows != 4 {
		t.Fatalf("products %d rows %d", len(res.Products), res.Rows)
	}
	ps := byKey(res)
	a := ps["A"]
	if !a.Valid() {
		t.Fatal(errText(a))
	}
	if res.Products[0] != a || a.Name().S != "Alpha" || strings.Join(a.Tags(), ",") != "x,y" || strings.Join(a.Attributes(), ",") != "Size" {
		t.Errorf("A = %+v", a)
	}
	var got []string
	for i := range a.Variants {
		v := &a.Variants[i]
		s, _ := v.Option("size")
		got = append(got, v.SKU()+":"+s+":"+v.Row().String())
	}
	if strings.Join(got, ",") != "A-S:S:in.csv row 2,A-M:M:in.csv row 4,A-L:L:in.csv row 5" {
		t.Errorf("variants %v", got)
	}
	v := &a.Variants[0]
	if w, _ := v.Field("weight"); w != "1" || v.Stock() != (Value{S: "5", Set: true}) {
		t.Errorf("fields %v stock %v", v.Fields(), v.Stock())
	}
	if f := v.Fields(); len(f) != 1 || f[0] != (Field{"weight", "1"}) {
		t.Errorf("fields %v", f)
	}
	if tr := v.Tiers(); len(tr) != 1 || tr[0] != (Tier{"Retail", "10"}) {
		t.Errorf("tiers %v", tr)
	}
	if _, ok := a.Variants[2].Tier("Retail"); ok {
		t.Error("an empty tier cell gave a price")
	}
	if a.Variants[1].Stock().Set {
		t.Error("an empty stock cell gave a stock")
	}
	if o := a.Variants[1].Options(); len(o) != 1 || o[0] != (Option{"Size", "M"}) {
		t.Errorf("carried option %v", o)
	}
	if rows := a.Rows(); len(rows) != 3 || rows[1].Line != 4 {
		t.Errorf("rows %v", rows)
	}
	if b := ps["B"]; len(b.Variants) != 1 || len(b.Attributes()) != 0 || b.TagsSet() {
		t.Errorf("B = %+v", b)
	}
}

func TestGroupCarriesNamesGivenLater(t *testing.T) {
	t.Parallel()
	res := group(t, keyMapping, keyHeader,
		[]string{"A", "", "", "", "", "", "", "Red", "", "S", ""},
		[]string{"A", "Alpha", "", "", "", "", "Color", "Blue", "Size", "M", ""},
	)
	a := res.Products[0]
	if !a.Valid() {
		t.Fatal(errText(a))
	}
	if strings.Join(a.Attributes(), ",") != "Color,Size" {
		t.Errorf("attributes %v", a.Attributes())
	}
	if got := strings.Join(a.OptionValues(&a.Variants[0]), ","); got != "Red,S" {
		t.Errorf("first variant options %q", got)
	}
	if k := a.VariantKey(&a.Variants[0]); k != "A|Red|S" {
		t.Errorf("variant key %q", k)
	}
}

func TestGroupValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		rows    [][]string
		invalid map[string][]string // product key → substrings of its errors
		valid   []string
	}{
		{
			name: "duplicate SKU across products",
			rows: [][]string{
				{"A", "Alpha", "", "S1", "", "", "", "", "", "", ""},
				{"B", "Beta", "", "S1", "", "", "", "", "", "", ""},
				{"C", "Gamma", "", "S2", "", "", "", "", "", "", ""},
			},
			invalid: map[string][]string{
				"A": {`in.csv row 2, column "sku", value "S1": variant.sku duplicate SKU: also on in.csv row 3`},
				"B": {`in.csv row 3, column "sku", value "S1": variant.sku duplicate SKU: also on in.csv row 2`},
			},
			valid: []string{"C"},
		},
		{
			name: "duplicate option combination",
			rows: [][]string{
				{"A", "Alpha", "", "S1", "", "", "Size", "S", "", "", ""},
				{"A", "", "", "S2", "", "", "Size", "S", "", "", ""},
				{"B", "Beta", "", "", "", "", "", "", "", "", ""},
				{"B", "", "", "", "", "", "", "", "", "", ""},
			},
			invalid: map[string][]string{
				"A": {`in.csv row 3`, `duplicate option combination in product "A": options Size=S as on in.csv row 2`},
				"B": {`in.csv row 5`, `no options as on in.csv row 4`},
			},
		},
		{
			name: "option value for an attribute no row names",
			rows: [][]string{
				{"A", "Alpha", "", "S1", "", "", "Size", "S", "", "", ""},
				{"A", "", "", "S2", "", "", "", "M", "", "Red", ""},
			},
			invalid: map[string][]string{"A": {`in.csv row 3, column "o2v", value "Red": option 2 has a value but no row of product "A" names attribute 2`}},
		},
		{
			name: "conflicting product name",
			rows: [][]string{
				{"A", "Alpha", "", "S1", "", "", "", "", "", "", ""},
				{"A", "Alfa", "", "S2", "", "", "Size", "M", "", "", ""},
			},
			invalid: map[string][]string{"A": {`in.csv row 3, column "name", value "Alfa": product.name differs from "Alpha" given on row 2`}},
		},
		{
			name: "invalid row spoils its product only",
			rows: [][]string{
				{"A", "Alpha", "", "S1", "heavy", "", "Size", "S", "", "", ""},
				{"A", "", "", "S2", "", "", "Size", "M", "", "", ""},
				{"B", "Beta", "", "S3", "2", "", "", "", "", "", "1,5"},
				{"C", "Gamma", "", "S4", "", "", "", "", "", "", ""},
			},
			invalid: map[string][]string{
				"A": {`in.csv row 2, column "weight", value "heavy": variant.weight must be a number (decimal ".")`},
				"B": {`in.csv row 4, column "tier:Retail", value "1,5": tier Retail must be a number`},
			},
			valid: []string{"C"},
		},
		{
			name: "product without name",
			rows: [][]string{
				{"A", "", "", "S1", "", "", "", "", "", "", ""},
			},
			invalid: map[string][]string{"A": {`in.csv row 2, column "name", value "": product.name required: product "A" has no name`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := group(t, keyMapping, keyHeader, tt.rows...)
			ps := byKey(res)
			for key, wants := range tt.invalid {
				p := ps[key]
				if p == nil {
					t.Fatalf("no product %s", key)
				}
				if p.Valid() {
					t.Errorf("%s is valid", key)
				}
				for _, w := range wants {
					if !strings.Contains(errText(p), w) {
						t.Errorf("%s errors:\n%s\nlack %q", key, errText(p), w)
					}
				}
			}
			for _, key := range tt.valid {
				if p := ps[key]; p == nil || !p.Valid() {
					t.Errorf("%s should be valid: %v", key, p)
				}
			}
		})
	}
}

func TestGroupOrphansAndSkips(t *testing.T) {
	t.Parallel()
	src := keyMapping + "skip:\n  - when: sku == \"skip\"\n    reason: \"not for sale ({name})\"\n"
	res := group(t, src, keyHeader,
		[]string{"", "Nameless", "", "S1", "", "", "", "", "", "", ""},
		[]string{"A", "Alpha", "", "skip", "", "", "", "", "", "", ""},
	)
	if len(res.Errors) != 1 || res.Errors[0].Row.Line != 2 || res.Errors[0].Target != "group.key" {
		t.Errorf("orphans %+v", res.Errors)
	}
	if len(res.Skipped) != 1 || res.Skipped[0] != (Skipped{RowRef{"in.csv", 3}, "not for sale (Alpha)"}) {
		t.Errorf("skipped %+v", res.Skipped)
	}
	if len(res.Products) != 0 {
		t.Errorf("products %v", res.Products)
	}
}

const parentMapping = `
group:
  by: parent
  key: {expr: 'sku != "" ? sku : "id:" + id'}
  alias: {expr: '"id:" + id'}
  parent: parent
  role: {expr: 'type == "variable" ? "product" : (type == "variation" ? "variant" : "both")'}
product:
  name: name
variant:
  sku: sku
options:
  pairs:
    - {name: an, value: av}
    - {name: bn, value: bv}
  when: type in ["variable", "variation"]
`

var parentHeader = []string{"id", "type", "sku", "name", "parent", "an", "av", "bn", "bv"}

func TestGroupParentReference(t *testing.T) {
	t.Parallel()
	res := group(t, parentMapping, parentHeader,
		[]string{"10", "variation", "tee-red", "Tee - Red", "tee", "Color", "Red", "Size", ""},
		[]string{"1", "variable", "tee", "Tee", "", "Color", "Red, Blue", "Size", "S, M"},
		[]string{"11", "variation", "tee-blue", "Tee - Blue", "id:1", "Color", "Blue", "Size", "M"},
		[]string{"2", "simple", "cap", "Cap", "", "Color", "Yellow", "", ""},
		[]string{"3", "variable", "", "Hoodie", "", "Color", "Grey", "", ""},
		[]string{"12", "variation", "hoodie-grey", "Hoodie - Grey", "id:3", "Color", "Grey", "", ""},
	)
	ps := byKey(res)
	if len(res.Products) != 3 {
		t.Fatalf("products %v", res.Products)
	}
	tee := ps["tee"]
	if !tee.Valid() {
		t.Fatal(errText(tee))
	}
	if tee.Name().S != "Tee" || strings.Join(tee.Attributes(), ",") != "Color,Size" || len(tee.Variants) != 2 || len(tee.ProductRows()) != 1 || tee.ProductRows()[0].Line != 3 {
		t.Errorf("tee = %+v", tee)
	}
	if got := strings.Join(tee.OptionValues(&tee.Variants[0]), "/"); got != "Red/" {
		t.Errorf("tee-red options %q (empty value: no option)", got)
	}
	cap := ps["cap"]
	if len(cap.Variants) != 1 || len(cap.Attributes()) != 0 || cap.Variants[0].SKU() != "cap" {
		t.Errorf("simple product %+v", cap)
	}
	hoodie := ps["id:3"]
	if hoodie == nil || len(hoodie.Variants) != 1 || hoodie.Variants[0].SKU() != "hoodie-grey" {
		t.Errorf("hoodie by id: %+v", hoodie)
	}
	if got := tee.SKUs(); strings.Join(got, ",") != "tee-red,tee-blue" {
		t.Errorf("SKUs %v", got)
	}
}

func TestGroupParentErrors(t *testing.T) {
	t.Parallel()
	res := group(t, parentMapping, parentHeader,
		[]string{"1", "variable", "tee", "Tee", "", "Color", "Red, Blue", "", ""},
		[]string{"10", "variation", "tee-green", "", "tee", "Color", "Green", "", ""},
		[]string{"11", "variation", "tee-xl", "", "tee", "Size", "XL", "", ""},
		[]string{"12", "variation", "lost", "", "nobody", "Color", "Red", "", ""},
		[]string{"2", "simple", "cap", "Cap", "", "", "", "", ""},
	)
	ps := byKey(res)
	tee := ps["tee"]
	for _, w := range []string{
		`in.csv row 3, column "av", value "Green": option Color is not among the values of "Color" declared on in.csv row 2: "Red", "Blue"`,
		`in.csv row 4, value "XL": option Size names an attribute the product does not have; its attributes (declared on in.csv row 2): "Color"`,
	} {
		if !strings.Contains(errText(tee), w) {
			t.Errorf("tee errors:\n%s\nlack %q", errText(tee), w)
		}
	}
	lost := ps["nobody"]
	if lost == nil || !strings.Contains(errText(lost), `in.csv row 5, column "parent", value "nobody": parent names product "nobody", but no product row has that key`) {
		t.Errorf("missing parent: %v", lost)
	}
	if !ps["cap"].Valid() {
		t.Error("cap should be valid:", errText(ps["cap"]))
	}
}

func TestGroupChildren(t *testing.T) {
	t.Parallel()
	src := `
group:
  by: children
  key: sku
  children: {column: kids, split: ","}
product:
  name: name
variant:
  sku: sku
options:
  columns: [color]
`
	header := []string{"sku", "name", "kids", "color"}
	res := group(t, src, header,
		[]string{"red", "Shirt red", "", "Red"},
		[]string{"shirt", "Shirt", "red, blue", ""},
		[]string{"blue", "Shirt blue", "", "Blue"},
		[]string{"mug", "Mug", "", ""},
		[]string{"pack", "Pack", "mug, ghost", ""},
		[]string{"pack2", "Pack 2", "mug", ""},
	)
	ps := byKey(res)
	shirt := ps["shirt"]
	if !shirt.Valid() || len(shirt.Variants) != 2 || strings.Join(shirt.Attributes(), ",") != "color" || shirt.Name().S != "Shirt" {
		t.Fatalf("shirt %+v %s", shirt, errText(shirt))
	}
	if ps["red"] != nil || ps["blue"] != nil {
		t.Error("claimed children are still products")
	}
	pack := ps["pack"]
	if !strings.Contains(errText(pack), `column "kids", value "ghost": group.children lists "ghost", but no row has that key`) {
		t.Errorf("pack errors %s", errText(pack))
	}
	pack2 := ps["pack2"]
	if !strings.Contains(errText(pack2), `lists "mug", which in.csv row 6 (product "pack") lists too`) {
		t.Errorf("pack2 errors %s", errText(pack2))
	}
	if len(res.Products) != 3 {
		t.Errorf("products: %d", len(res.Products))
	}
}

// An attribute name given on one child row names the option of another
// child row of the same product (Shopify-style pairs after a merge).
func TestGroupChildrenCarryNamesAcrossRows(t *testing.T) {
	t.Parallel()
	src := `
group:
  by: children
  key: sku
  children: {column: kids, split: ","}
product:
  name: name
variant:
  sku: sku
options:
  pairs:
    - {name: on, value: ov}
`
	header := []string{"sku", "name", "kids", "on", "ov"}
	res := group(t, src, header,
		[]string{"shirt", "Shirt", "red, blue", "", ""},
		[]string{"red", "Shirt red", "", "Color", "Red"},
		[]string{"blue", "Shirt blue", "", "", "Blue"},
	)
	shirt := byKey(res)["shirt"]
	if !shirt.Valid() {
		t.Fatalf("shirt: %s", errText(shirt))
	}
	if got := strings.Join(shirt.Attributes(), ","); got != "Color" {
		t.Errorf("attributes %q", got)
	}
	for _, v := range shirt.Variants {
		if val, ok := v.Option("Color"); !ok || val == "" {
			t.Errorf("%s: no Color", v.SKU())
		}
	}
}

// A SKU shared by many rows (a placeholder like "N/A") gives each row one
// message of bounded length, not a list of every other row.
func TestGroupManyDuplicateSKUs(t *testing.T) {
	t.Parallel()
	const n = 1000
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = []string{fmt.Sprint("P", i), "Name", "", "N/A", "", "", "", "", "", "", ""}
	}
	res := group(t, keyMapping, keyHeader, rows...)
	if len(res.Products) != n {
		t.Fatalf("%d products", len(res.Products))
	}
	first := `duplicate SKU: also on in.csv row 3, in.csv row 4, in.csv row 5, in.csv row 6, in.csv row 7, in.csv row 8, in.csv row 9, in.csv row 10, in.csv row 11, in.csv row 12 and 989 more rows`
	if got := errText(res.Products[0]); !strings.HasSuffix(got, first) {
		t.Errorf("first row:\n%s\nwant it to end with\n%s", got, first)
	}
	for _, p := range res.Products {
		if len(p.Errs()) != 1 || len(p.Errs()[0].Rule) > 250 || !strings.Contains(p.Errs()[0].Rule, " and 989 more rows") {
			t.Fatalf("%s: %d errors: %s", p.Key, len(p.Errs()), clip(errText(p)))
		}
	}
}

// The variant rows a product row lists go with it when the product row is
// invalid: none of them may be written as a product of its own.
func TestGroupInvalidProductRowKeepsChildren(t *testing.T) {
	t.Parallel()
	src := `
group:
  by: children
  key: sku
  children: {column: kids, split: ","}
product:
  name: name
  description: {column: d, required: true}
variant:
  sku: sku
`
	header := []string{"sku", "name", "kids", "d"}
	res := group(t, src, header,
		[]string{"shirt", "Shirt", "red, blue", ""},
		[]string{"red", "Shirt red", "", "x"},
		[]string{"blue", "Shirt blue", "", "x"},
	)
	if len(res.Products) != 1 {
		t.Fatalf("%d products, want the shirt alone", len(res.Products))
	}
	shirt := res.Products[0]
	if shirt.Key != "shirt" || shirt.Valid() || len(shirt.Variants) != 2 {
		t.Errorf("shirt %+v", shirt)
	}
	if got := len(shirt.Rows()); got != 3 {
		t.Errorf("the shirt reports %d rows, want 3", got)
	}
}

func TestGroupJoin(t *testing.T) {
	t.Parallel()
	src := `
group:
  key: id
product:
  name: name
variant:
  sku: ref
  cost: cost
options:
  list: attrs
join:
  file: combos.csv
  key: product_id
`
	m, err := mapping.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	mainP, err := m.Compile("products.csv", []string{"id", "name"})
	if err != nil {
		t.Fatal(err)
	}
	joinP, err := m.CompileJoin("combos.csv", []string{"product_id", "ref", "cost", "attrs"})
	if err != nil {
		t.Fatal(err)
	}
	g := NewGrouper(m)
	var r mapping.Row
	for i, row := range [][]string{{"1", "Shirt"}, {"2", "Mug"}} {
		mainP.Eval(row, &r)
		g.Add(RowRef{"products.csv", i + 2}, &r)
	}
	for i, row := range [][]string{{"1", "SH-S", "3.5", "Size=S"}, {"9", "X-1", "", ""}, {"1", "SH-M", "", "Size=M"}} {
		joinP.Eval(row, &r)
		g.Add(RowRef{"combos.csv", i + 2}, &r)
	}
	res := g.Finish()
	ps := byKey(res)
	shirt := ps["1"]
	if !shirt.Valid() || len(shirt.Variants) != 2 || shirt.Variants[1].Row() != (RowRef{"combos.csv", 4}) || shirt.ProductRows()[0] != (RowRef{"products.csv", 2}) {
		t.Fatalf("shirt %+v %s", shirt, errText(shirt))
	}
	if c, _ := shirt.Variants[0].Field("cost"); c != "3.5" {
		t.Errorf("cost %q", c)
	}
	if mug := ps["2"]; !mug.Valid() || len(mug.Variants) != 0 {
		t.Errorf("mug %+v", mug)
	}
	if lost := ps["9"]; lost == nil || !strings.Contains(errText(lost), `combos.csv row 3, column "product_id", value "9": parent names product "9"`) {
		t.Errorf("unknown product in join: %v", lost)
	}
}

func TestRowErrorMessage(t *testing.T) {
	t.Parallel()
	e := &RowError{Row: RowRef{"a.csv", 7}, Column: "Variant Grams", Value: strings.Repeat("x", 100), Target: "variant.weight", Rule: "must be a number"}
	want := `a.csv row 7, column "Variant Grams", value "` + strings.Repeat("x", 77) + `...": variant.weight must be a number`
	if e.Error() != want {
		t.Errorf("got  %s\nwant %s", e.Error(), want)
	}
}

func TestGroupManyInterleaved(t *testing.T) {
	t.Parallel()
	// Interleaved rows of many products, and one product with more
	// variants than a chunk's share, keep every variant in order.
	var rows [][]string
	for v := 0; v < 6; v++ {
		for p := 0; p < 700; p++ {
			k := string(rune('a'+p%26)) + strings.Repeat("x", p/26)
			rows = append(rows, []string{k, "N" + k, "", k + "-" + string(rune('0'+v)), "", "", "Size", string(rune('0' + v)), "", "", ""})
		}
	}
	for v := 0; v < 1500; v++ {
		s := strings.Repeat("z", v/10+1) + string(rune('a'+v%10))
		rows = append(rows, []string{"big", "Big", "", "big-" + s, "", "", "Size", s, "", "", ""})
	}
	res := group(t, keyMapping, keyHeader, rows...)
	if len(res.Products) != 701 {
		t.Fatalf("products %d", len(res.Products))
	}
	for _, p := range res.Products {
		if !p.Valid() {
			t.Fatalf("%s: %s", p.Key, errText(p))
		}
		want := 6
		if p.Key == "big" {
			want = 1500
		}
		if len(p.Variants) != want {
			t.Fatalf("%s has %d variants", p.Key, len(p.Variants))
		}
		for i := range p.Variants {
			v := &p.Variants[i]
			o, _ := v.Option("Size")
			if p.Key != "big" && (v.SKU() != p.Key+"-"+string(rune('0'+i)) || o != string(rune('0'+i))) {
				t.Fatalf("%s variant %d = %s %s", p.Key, i, v.SKU(), o)
			}
		}
	}
}

func TestGroupCarriesManyPairs(t *testing.T) {
	t.Parallel()
	src := "group:\n  key: k\nproduct:\n  name: n\noptions:\n  pairs:\n"
	header := []string{"k", "n"}
	for i := 1; i <= 5; i++ {
		c := string(rune('0' + i))
		src += "    - {name: n" + c + ", value: v" + c + "}\n"
		header = append(header, "n"+c, "v"+c)
	}
	res := group(t, src, header,
		[]string{"A", "", "", "a", "", "b", "", "c", "", "d", "", "e"},
		[]string{"A", "Alpha", "N1", "x", "N2", "b", "N3", "c", "N4", "d", "N5", "e"},
	)
	a := res.Products[0]
	if !a.Valid() {
		t.Fatal(errText(a))
	}
	if strings.Join(a.Attributes(), ",") != "N1,N2,N3,N4,N5" {
		t.Errorf("attributes %v", a.Attributes())
	}
	if got := strings.Join(a.OptionValues(&a.Variants[0]), ","); got != "a,b,c,d,e" {
		t.Errorf("carried values %q", got)
	}
}

func TestGroupInvalidProductRowKeepsIdentity(t *testing.T) {
	t.Parallel()
	src := strings.Replace(parentMapping, "variant:\n  sku: sku\n", "variant:\n  sku: sku\n  weight: w\n", 1)
	header := append(slices.Clone(parentHeader), "w")
	res := group(t, src, header,
		[]string{"1", "simple", "", "Cap", "", "", "", "", "", "heavy"},
		[]string{"2", "variation", "cap-x", "", "id:1", "", "", "", "", ""},
	)
	if len(res.Products) != 1 {
		t.Fatalf("products %d", len(res.Products))
	}
	p := res.Products[0]
	msg := errText(p)
	if !strings.Contains(msg, `value "heavy": variant.weight must be a number`) || strings.Contains(msg, "no name") || strings.Contains(msg, "no product row") {
		t.Errorf("errors:\n%s", msg)
	}
	if p.Name().S != "Cap" || len(p.Rows()) != 2 {
		t.Errorf("product %+v rows %v", p, p.Rows())
	}
}

// MoveData keeps what the variants hold, in other memory; ReleaseData
// lets it go and keeps their SKUs and rows.
func TestProductMoveAndReleaseData(t *testing.T) {
	t.Parallel()
	res := group(t, keyMapping, keyHeader,
		[]string{"A", "Alpha", "x|y", "A-S", "1", "5", "Size", "S", "", "", "10"},
		[]string{"A", "", "", "A-M", "", "", "", "M", "", "", "11"},
	)
	p := res.Products[0]
	describe := func() string {
		var out []string
		for i := range p.Variants {
			v := &p.Variants[i]
			out = append(out, fmt.Sprintf("%s %s %v %v %v %v", v.SKU(), v.Row(), v.Options(), v.Fields(), v.Tiers(), v.Stock()))
		}
		return strings.Join(out, "; ")
	}
	before := describe()
	var a arena.Arena
	p.MoveData(&a)
	if got := describe(); got != before {
		t.Errorf("moved: %s, want %s", got, before)
	}
	var skus arena.Arena
	p.ReleaseData(&skus)
	want := "A-S in.csv row 2 [] [] [] { false}; A-M in.csv row 3 [] [] [] { false}"
	if got := describe(); got != want {
		t.Errorf("released: %s, want %s", got, want)
	}
	// Let go again (an import lets go of a product the account's has equal,
	// then of its plan's): the SKUs are not copied again.
	sku := unsafe.StringData(p.Variants[0].SKU())
	p.ReleaseData(&skus)
	if got := describe(); got != want || unsafe.StringData(p.Variants[0].SKU()) != sku {
		t.Errorf("released again: %s, want %s, the SKUs where they were", got, want)
	}
}

// sortHashes sorts a few hashes as slices.Sort does, and many on two
// cores: the same values, in order, the repeated ones side by side.
func TestSortHashes(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 1000, 1<<16 - 1, 1 << 16, 300_001} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		hashes := make([]uint64, n)
		for i := range hashes {
			hashes[i] = rng.Uint64()
			if i%97 == 5 {
				hashes[i] = hashes[i/2] // repeated, either side of 1<<63
			}
		}
		if n > 3 {
			hashes[0], hashes[1] = 1<<63, 1<<63-1 // the parts' edges
		}
		want := slices.Clone(hashes)
		slices.Sort(want)
		sortHashes(hashes)
		if !slices.Equal(hashes, want) {
			t.Fatalf("%d hashes: not sorted as slices.Sort sorts them", n)
		}
	}
}
