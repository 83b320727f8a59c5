package mapping

import (
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// program parses src and binds it to header.
func program(t *testing.T, src string, header ...string) *Program {
	t.Helper()
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Compile("in.csv", header)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func eval(t *testing.T, p *Program, cells ...string) *Row {
	t.Helper()
	var r Row
	p.Eval(cells, &r)
	return &r
}

func TestExpressionHelpers(t *testing.T) {
	t.Parallel()
	header := []string{"A", "B", "Long Name"}
	tests := []struct {
		expr   string
		cells  []string
		want   string
		errHas string
	}{
		{`trim(A)`, []string{"  x  ", "", ""}, "x", ""},
		{`lower(A) + upper(B)`, []string{"Ab", "cd", ""}, "abCD", ""},
		{`col("Long Name")`, []string{"", "", "v"}, "v", ""},
		{`number(A) * 2`, []string{"1,5", "", ""}, "3", ""},
		{`number(A, ",") + 1`, []string{"2,5", "", ""}, "3.5", ""},
		{`number(A)`, []string{"abc", "", ""}, "", `number: "abc" is not a number`},
		{`shift(A, -3)`, []string{"145", "", ""}, "0.145", ""},
		{`split(A, ";")[1]`, []string{"x;y", "", ""}, "y", ""},
		{`join(list(A), "+")`, []string{"a| b |c", "", ""}, "a+b+c", ""},
		{`join(list(A, ","), "/")`, []string{"a,b", "", ""}, "a/b", ""},
		{`default(A, "none")`, []string{" ", "", ""}, "none", ""},
		{`default(A, "none")`, []string{"set", "", ""}, "set", ""},
		{`replace(A, "-", " ")`, []string{"a-b", "", ""}, "a b", ""},
		{`lookup("colours", A)`, []string{"rouge", "", ""}, "Red", ""},
		{`lookup("colours", A, A)`, []string{"vert", "", ""}, "vert", ""},
		{`kv(A)["Size"]`, []string{"Color=Red, Size=L", "", ""}, "L", ""},
		{`kv(A, ";", ":")["Color"]`, []string{"Color:Red;Size:L", "", ""}, "Red", ""},
		{`kv(A)["x"]`, []string{"broken", "", ""}, "", "is not a name=value item"},
		{`date(A)`, []string{"03/01/2024", "", ""}, "2024-01-03", ""},
		{`date(A)`, []string{"2024-31-01", "", ""}, "", `date: "2024-31-01" is not a date (YYYY-MM-DD, DD/MM/YYYY)`},
		{`text(number(A))`, []string{"1,50", "", ""}, "1.5", ""},
		{`A == "x" ? B : "no"`, []string{"x", "yes", ""}, "yes", ""},
		{`value + "!"`, []string{"cell", "", ""}, "", ""}, // no column: value is ""
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			src := "source:\n  decimal: \",\"\n  date_formats: [DD/MM/YYYY]\ntables:\n  colours: {rouge: Red}\n" +
				"group:\n  key: {value: k}\nproduct:\n  name: {value: n}\nvariant:\n  description: {expr: '" + tt.expr + "'}\n"
			if tt.expr == `number(A) * 2` || tt.expr == `shift(A, -3)` {
				src = strings.Replace(src, `decimal: ","`, `decimal: "."`, 1)
				if tt.expr == `number(A) * 2` {
					src = strings.Replace(src, `decimal: "."`, `decimal: ","`, 1)
				}
			}
			p := program(t, src, header...)
			r := eval(t, p, tt.cells...)
			if tt.errHas != "" {
				if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas) {
					t.Fatalf("errors %v, want one with %q", r.Errors, tt.errHas)
				}
				if r.Errors[0].Column != "A" || r.Errors[0].Target != "variant.description" {
					t.Errorf("error names column %q target %q", r.Errors[0].Column, r.Errors[0].Target)
				}
				return
			}
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %v", r.Errors)
			}
			got := ""
			if len(r.Variant.Fields) > 0 {
				got = r.Variant.Fields[0].Value
			}
			want := tt.want
			if tt.expr == `value + "!"` {
				want = "!"
			}
			if got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	header := []string{"Handle", "Title", "Variant Grams", "Variant SKU", "Dup", "Dup", "tier:", "tier:  ", "tier:Retail"}
	tests := []struct {
		name, src string
		wantAll   []string
	}{
		{"close match", minimal + "variant:\n  weight: Variant Gram\n", []string{"m.yaml:6:11", "variant.weight", `no column "Variant Gram" in in.csv`, `did you mean "Variant Grams"`}},
		{"lists columns", minimal + "variant:\n  upc: Zzzzzz\n", []string{"m.yaml:6:8", `columns: "Handle", "Title"`}},
		{"expr identifier", minimal + "variant:\n  upc: {expr: 'lower(Titel)'}\n", []string{"m.yaml:6:15", `no column "Titel"`, `did you mean "Title"?`, `col("Its Name")`}},
		{"expr identifier in a helper", minimal + "variant:\n  upc: {expr: 'number(Titel)'}\n", []string{"m.yaml:6:15", `no column "Titel"`}},
		{"expr col()", minimal + "variant:\n  upc: {expr: 'col(\"Variant SKUs\")'}\n", []string{`no column "Variant SKUs"`, `"Variant SKU"`}},
		{"constant hint", minimal + "variant:\n  weight: 0.5\n", []string{`no column "0.5"`, `a constant is written {value: "0.5"}`}},
		{"duplicate column", minimal + "variant:\n  upc: Dup\n", []string{`column "Dup" appears twice in in.csv (columns 5 and 6)`}},
		{"unknown table", minimal + "variant:\n  upc: {expr: 'lookup(\"nope\", Title)'}\n", []string{`no table "nope"`}},
		{"skip reason column", minimal + "skip:\n  - when: Title == \"\"\n    reason: \"{Titl} is empty\"\n", []string{`skip reason {Titl}`, `did you mean "Title"?`}},
		{"skip not bool", minimal + "skip:\n  - when: Title\n    reason: x\n", []string{"skip when", "bool"}},
		{"tier column without a name", minimal + "tiers:\n  prefix: \"tier:\"\n", []string{"m.yaml:6:11", `column 7 of in.csv, "tier:"`, `column 8 of in.csv`, "names no pricing tier", `like "tier:Retail"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Compile("in.csv", header)
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want ErrorList", err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// Every problem is reported at once.
	m, _ := Parse("m.yaml", []byte(minimal+"variant:\n  weight: W1\n  cost: W2\n"))
	_, err := m.Compile("in.csv", header)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Errorf("want 2 errors, got %v", err)
	}
}

const shopifyLike = `
group:
  key: Handle
product:
  name: Title
  notes: {column: Notes, clear_when_empty: true}
  tags: {column: Tags, split: ","}
variant:
  sku: SKU
  weight: Weight
  stock: {column: Qty, type: integer}
  description: {column: Desc, default: "none"}
  upc: {column: UPC, required: true}
options:
  pairs:
    - {name: O1N, value: O1V}
    - {name: O2N, value: O2V}
  columns: [Color]
  list: Attrs
  ignore: [Default Title]
tiers:
  columns:
    Price: Price
  prefix: "tier:"
skip:
  - when: SKU == "" && Price == ""
    reason: "image-only row of {Handle}"
`

var shopifyHeader = []string{"Handle", "Title", "Notes", "Tags", "SKU", "Weight", "Qty", "Desc", "UPC", "O1N", "O1V", "O2N", "O2V", "Color", "Attrs", "Price", "tier:Wholesale"}

func TestEvalRow(t *testing.T) {
	t.Parallel()
	p := program(t, shopifyLike, shopifyHeader...)
	// Handle Title Notes Tags SKU Weight Qty Desc UPC O1N O1V O2N O2V Color Attrs Price tier:Wholesale
	r := eval(t, p, "h", " Shirt ", "", "a, b,,c", "S1", "1.50", "3", "", "u1", "Size", "M", "Title", "Default Title", "Red", "Fit=Slim", "9.90", "7")
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	if r.Skip || r.Role != RoleBoth || r.GroupKey != "h" {
		t.Errorf("skip %v role %v key %q", r.Skip, r.Role, r.GroupKey)
	}
	if r.Product.Name != (Value{"Shirt", true}) {
		t.Errorf("name %+v", r.Product.Name)
	}
	if r.Product.Notes != (Value{"", true}) {
		t.Errorf("notes %+v: an empty cell with clear_when_empty must clear", r.Product.Notes)
	}
	if r.Product.Description.Set {
		t.Error("description set without mapping")
	}
	if strings.Join(r.Product.Tags, "|") != "a|b|c" || !r.Product.TagsSet {
		t.Errorf("tags %q", r.Product.Tags)
	}
	if r.Variant.SKU != "S1" || r.Variant.Stock != (Value{"3", true}) {
		t.Errorf("variant %+v", r.Variant)
	}
	fields := map[string]string{}
	for _, f := range r.Variant.Fields {
		fields[f.Name] = f.Value
	}
	if fields["weight"] != "1.5" || fields["description"] != "none" || fields["upc"] != "u1" || len(fields) != 3 {
		t.Errorf("fields %v", fields)
	}
	var opts []string
	for _, o := range r.Options {
		opts = append(opts, o.Name+"="+o.Value)
	}
	if strings.Join(opts, ",") != "Size=M,Color=Red,Fit=Slim" {
		t.Errorf("options %v", opts)
	}
	if r.Options[0].Slot != 1 || r.Options[0].Column != "O1V" {
		t.Errorf("option 0 = %+v", r.Options[0])
	}
	if len(r.Tiers) != 2 || r.Tiers[0] != (Tier{"Price", "9.9"}) || r.Tiers[1] != (Tier{"Wholesale", "7"}) {
		t.Errorf("tiers %v", r.Tiers)
	}

	// Empty cells leave targets unset; a name-less pair keeps its slot.
	r = eval(t, p, "h", "", "", "", "S2", "", "", "", "u2", "", "L", "", "", "", "", "9", "")
	if len(r.Errors) > 0 {
		t.Fatal(r.Errors)
	}
	if r.Product.Name.Set || r.Product.TagsSet || r.Variant.Stock.Set {
		t.Errorf("empty cells set values: %+v %+v", r.Product, r.Variant)
	}
	if r.Product.Notes != (Value{"", true}) {
		t.Errorf("notes %+v", r.Product.Notes)
	}
	if len(r.Options) != 1 || r.Options[0] != (Option{Slot: 1, Value: "L", Column: "O1V"}) {
		t.Errorf("options %+v", r.Options)
	}

	// Skip rule with a column in its reason.
	r = eval(t, p, "h", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "")
	if !r.Skip || r.SkipReason != "image-only row of h" {
		t.Errorf("skip %v %q", r.Skip, r.SkipReason)
	}
}

func TestEvalErrors(t *testing.T) {
	t.Parallel()
	p := program(t, shopifyLike, shopifyHeader...)
	var r Row
	err := p.Eval([]string{"", "T", "", "", "S1", "heavy", "2.5", "", "", "", "", "", "", "", "Fit", "1,5", "", ""}, &r)
	var re RowErrors
	if !errors.As(err, &re) {
		t.Fatalf("err %v", err)
	}
	want := []FieldError{
		{Column: "Handle", Target: "group.key", Rule: "required: every row needs a product key"},
		{Column: "Weight", Value: "heavy", Target: "variant.weight", Rule: `must be a number (decimal ".")`},
		{Column: "Qty", Value: "2.5", Target: "variant.stock", Rule: "must be a whole number"},
		{Column: "UPC", Target: "variant.upc", Rule: "required: must not be empty"},
		{Column: "Price", Value: "1,5", Target: "tier Price", Rule: `must be a number (decimal ".")`},
		{Column: "Attrs", Value: "Fit", Target: "options.list", Rule: `must be name=value items separated by ",": "Fit" is not a name=value item (items are separated by ",")`},
	}
	if len(re) != len(want) {
		t.Fatalf("errors:\n%v", strings.ReplaceAll(re.Error(), "; ", "\n"))
	}
	got := map[string]FieldError{}
	for _, e := range re {
		got[e.Target] = e
	}
	for _, w := range want {
		if got[w.Target] != w {
			t.Errorf("error for %s = %+v, want %+v", w.Target, got[w.Target], w)
		}
	}
	if !strings.Contains(err.Error(), `column "Weight" value "heavy" (variant.weight): must be a number`) {
		t.Errorf("message %q", err)
	}

	// The same attribute twice in a row.
	r2 := eval(t, p, "h", "", "", "", "S", "", "", "", "u", "Color", "Red", "", "", "Blue", "", "1", "", "")
	if len(r2.Errors) != 1 || !strings.Contains(r2.Errors[0].Rule, `attribute "Color" is given twice`) {
		t.Errorf("errors %v", r2.Errors)
	}
}

func TestEvalParentRoles(t *testing.T) {
	t.Parallel()
	src := `
group:
  by: parent
  key: SKU
  parent: Parent
  alias: {expr: '"id:" + ID'}
product:
  name: Name
variant:
  sku: SKU
options:
  pairs:
    - {name: AN, value: AV}
  values_separator: ","
`
	p := program(t, src, "ID", "SKU", "Parent", "Name", "AN", "AV")
	r := eval(t, p, "1", "tee", "", "Tee", "Color", "Red, Blue")
	if r.Role != RoleBoth || r.Alias != "id:1" {
		t.Errorf("role %v alias %q", r.Role, r.Alias)
	}
	r = eval(t, p, "2", "tee-red", "tee", "Tee - Red", "Color", "Red")
	if r.Role != RoleVariant || r.ParentRef != "tee" || r.Product.Name.Set || r.Variant.SKU != "tee-red" {
		t.Errorf("variant row: %+v", r)
	}
	r = eval(t, p, "3", "", "tee", "", "Color", "Red")
	if r.Role != RoleVariant || len(r.Errors) != 0 {
		t.Errorf("variant without SKU: %+v", r)
	}
	r = eval(t, p, "4", "", "", "", "", "")
	if len(r.Errors) != 1 || r.Errors[0].Target != "group.key" {
		t.Errorf("row without key: %v", r.Errors)
	}

	role := strings.Replace(src, "  alias:", "  role: {expr: 'Parent == \"\" ? \"product\" : \"variant\"'}\n  alias:", 1)
	p = program(t, role, "ID", "SKU", "Parent", "Name", "AN", "AV")
	r = eval(t, p, "1", "tee", "", "Tee", "Color", "Red, Blue")
	if r.Role != RoleProduct || len(r.Declared) != 1 || r.Declared[0].Name != "Color" || strings.Join(r.Declared[0].Values, "|") != "Red|Blue" {
		t.Errorf("product row: %+v", r)
	}
	if r.Variant.SKU != "" || len(r.Options) != 0 {
		t.Errorf("product row has a variant: %+v", r.Variant)
	}
	bad := strings.Replace(role, `"product" : "variant"`, `"parent" : "variant"`, 1)
	p = program(t, bad, "ID", "SKU", "Parent", "Name", "AN", "AV")
	r = eval(t, p, "1", "tee", "", "Tee", "", "")
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, "must be product, variant, both or product_or_both") {
		t.Errorf("bad role: %v", r.Errors)
	}
}

func TestEvalChildrenAndJoin(t *testing.T) {
	t.Parallel()
	src := `
group:
  by: children
  key: sku
  children: {column: kids, split: "|"}
product:
  name: name
`
	p := program(t, src, "sku", "name", "kids")
	r := eval(t, p, "P", "Parent", "a| b")
	if r.Role != RoleProduct || strings.Join(r.ChildKeys, ",") != "a,b" || r.ChildColumn != "kids" {
		t.Errorf("parent row %+v", r)
	}
	r = eval(t, p, "a", "Child", "")
	if r.Role != RoleBoth || r.Variant.SKU != "" || r.GroupKey != "a" {
		t.Errorf("child row %+v", r)
	}

	join := `
group:
  key: id
product:
  name: name
variant:
  sku: ref
options:
  list: attrs
join:
  file: combos.csv
  key: product_id
  skip:
    - when: ref == "x"
      reason: excluded
`
	m, err := Parse("m.yaml", []byte(join))
	if err != nil {
		t.Fatal(err)
	}
	mainP, err := m.Compile("products.csv", []string{"id", "name"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Compile("products.csv", []string{"id", "name", "ref"}); err != nil {
		t.Fatal("the main file must not need variant columns:", err)
	}
	var row Row
	mainP.Eval([]string{"7", "Shirt"}, &row)
	if row.Role != RoleProduct || row.GroupKey != "7" || row.Product.Name.S != "Shirt" {
		t.Errorf("main row %+v", row)
	}
	joinP, err := m.CompileJoin("combos.csv", []string{"product_id", "ref", "attrs"})
	if err != nil {
		t.Fatal(err)
	}
	joinP.Eval([]string{"7", "S-1", "Size=M"}, &row)
	if row.Role != RoleVariant || row.ParentRef != "7" || row.Variant.SKU != "S-1" || len(row.Options) != 1 {
		t.Errorf("joined row %+v", row)
	}
	joinP.Eval([]string{"7", "x", ""}, &row)
	if !row.Skip || row.SkipReason != "excluded" {
		t.Errorf("join skip %+v", row)
	}
	joinP.Eval([]string{"", "S-2", ""}, &row)
	if len(row.Errors) != 1 || row.Errors[0].Column != "product_id" {
		t.Errorf("joined row without key: %v", row.Errors)
	}
	if _, err := m.CompileJoin("combos.csv", []string{"pid", "ref", "attrs"}); err == nil || !strings.Contains(err.Error(), `no column "product_id" in combos.csv`) {
		t.Errorf("join compile error %v", err)
	}
}

func TestProgramClone(t *testing.T) {
	t.Parallel()
	p := program(t, minimal+"variant:\n  upc: {expr: 'upper(Title)'}\n", "Handle", "Title")
	c := p.Clone()
	done := make(chan string)
	go func() {
		var r Row
		for i := 0; i < 1000; i++ {
			c.Eval([]string{"h", "b"}, &r)
		}
		done <- r.Variant.Fields[0].Value
	}()
	var r Row
	for i := 0; i < 1000; i++ {
		p.Eval([]string{"h", "a"}, &r)
	}
	if got := <-done; got != "B" || r.Variant.Fields[0].Value != "A" {
		t.Errorf("clone %q, original %q", got, r.Variant.Fields[0].Value)
	}
}

func TestEmptyCellSkipsColumnExpression(t *testing.T) {
	t.Parallel()
	p := program(t, minimal+"variant:\n  weight: {column: W, expr: 'number(value) / 1000'}\n  cost: {expr: 'number(W) + 1'}\n", "Handle", "Title", "W")
	r := eval(t, p, "h", "T", "")
	if len(r.Variant.Fields) != 1 || r.Variant.Fields[0] != (FieldValue{"cost", "1"}) {
		t.Errorf("fields %+v: an empty cell must not give weight 0", r.Variant.Fields)
	}
	r = eval(t, p, "h", "T", "1500")
	if len(r.Variant.Fields) != 2 || r.Variant.Fields[0] != (FieldValue{"weight", "1.5"}) {
		t.Errorf("fields %+v", r.Variant.Fields)
	}
}

func TestLoadAndKinds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/m.yaml"
	src := "source:\n  date_formats: [DD.MM.YYYY]\n" + minimal + "variant:\n  notes: {column: D, type: date}\n  upc: {expr: 'A == \"y\"'}\n  description: {expr: 'list(A)'}\n  location_1: {column: A, type: integer}\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.File != "m.yaml" {
		t.Errorf("File = %q", m.File)
	}
	if _, err := Load(dir + "/missing.yaml"); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
	p, err := m.Compile("in.csv", []string{"Handle", "Title", "D", "A"})
	if err != nil {
		t.Fatal(err)
	}
	r := eval(t, p, "h", "T", "24.12.2025", "y")
	got := map[string]string{}
	for _, f := range r.Variant.Fields {
		got[f.Name] = f.Value
	}
	if got["notes"] != "2025-12-24" || got["upc"] != "true" || got["description"] != "y" {
		t.Errorf("fields %v (errors %v)", got, r.Errors)
	}
	r = eval(t, p, "h", "T", "12/24/2025", "a|b")
	if len(r.Errors) != 2 || r.Errors[0].Rule != "must be a date (YYYY-MM-DD, DD.MM.YYYY)" || r.Errors[1].Rule != "must be a whole number" {
		t.Errorf("errors %v", r.Errors)
	}
	if got := r.Variant.Fields[1]; got != (FieldValue{"description", "a,b"}) {
		t.Errorf("list to text: %+v", got)
	}
}

// A joined file's dates are read, and explained in errors, with the
// formats of join.source, not those of the main file.
func TestJoinDateFormats(t *testing.T) {
	t.Parallel()
	src := "source:\n  date_formats: [DD.MM.YYYY]\n" + minimal +
		"variant:\n  notes: {column: made, type: date}\n" +
		"join:\n  file: combos.csv\n  key: pid\n  source:\n    date_formats: [DD/MM/YYYY]\n"
	m, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.CompileJoin("combos.csv", []string{"pid", "made"})
	if err != nil {
		t.Fatal(err)
	}
	var r Row
	p.Eval([]string{"1", "03/01/2024"}, &r)
	if len(r.Errors) != 0 || len(r.Variant.Fields) != 1 || r.Variant.Fields[0].Value != "2024-01-03" {
		t.Errorf("03/01/2024: %+v", r)
	}
	p.Eval([]string{"1", "03.01.2024"}, &r)
	if len(r.Errors) != 1 || r.Errors[0].Rule != "must be a date (YYYY-MM-DD, DD/MM/YYYY)" {
		t.Errorf("03.01.2024: %v", r.Errors)
	}
}

func TestDeclaredFromFixedColumns(t *testing.T) {
	t.Parallel()
	src := "group:\n  by: parent\n  key: sku\n  parent: parent\n  role: {expr: 'parent == \"\" ? \"product\" : \"variant\"'}\nproduct:\n  name: name\nvariant:\n  sku: sku\noptions:\n  columns: [Color]\n  values_separator: \"/\"\n"
	p := program(t, src, "sku", "parent", "name", "Color")
	r := eval(t, p, "tee", "", "Tee", "Red/Blue")
	if r.Role != RoleProduct || len(r.Declared) != 1 || strings.Join(r.Declared[0].Values, ",") != "Red,Blue" || r.Declared[0].Column != "Color" {
		t.Errorf("declared %+v", r.Declared)
	}
	if RoleProduct.String() != "product" || KindDate.String() != "date" {
		t.Error("names of roles or kinds")
	}
}

func TestEvalNegativeQuantities(t *testing.T) {
	t.Parallel()
	src := minimal + `variant:
  weight: W
  cost: C
  supplier_cost: SC
  stock: Q
  low_stock_alert: L
  description: D
  notes: {expr: 'number(D) - 10', type: number}
tiers:
  columns:
    Compare At Price: CAP
  prefix: "tier:"
`
	header := []string{"Handle", "Title", "W", "C", "SC", "Q", "L", "D", "CAP", "tier:Retail"}
	p := program(t, src, header...)
	tests := []struct {
		col, value, target, what string // what: the words of the rule; "" means no error
	}{
		{"W", "-0.5", "variant.weight", "a negative weight is refused"},
		{"C", "-4.50", "variant.cost", "a negative cost is refused"},
		{"SC", "-1", "variant.supplier_cost", "a negative supplier cost is refused"},
		{"Q", "-3", "variant.stock", "negative opening stock is refused"},
		{"CAP", "-19.99", "tier Compare At Price", "a negative price is refused"},
		{"tier:Retail", "-1E2", "tier Retail", "a negative price is refused"},
		{"W", "-0", "", ""},   // zero, however written
		{"C", "0.00", "", ""}, // zero
		{"L", "-1", "", ""},   // a low-stock alert is not a quantity held
		{"D", "-5", "", ""},   // a description is text (and notes, number(D) - 10, is not a quantity)
	}
	for _, tt := range tests {
		t.Run(tt.col+"="+tt.value, func(t *testing.T) {
			cells := make([]string, len(header))
			cells[0], cells[1], cells[7] = "h", "T", "20"
			cells[slices.Index(header, tt.col)] = tt.value
			r := eval(t, p, cells...)
			if tt.what == "" {
				if len(r.Errors) > 0 {
					t.Fatalf("errors %v, want none", r.Errors)
				}
				return
			}
			if len(r.Errors) != 1 {
				t.Fatalf("errors %v, want one", r.Errors)
			}
			e := r.Errors[0]
			if e.Column != tt.col || e.Value != tt.value || e.Target != tt.target || !strings.Contains(e.Rule, "must be 0 or more: "+tt.what) {
				t.Errorf("error %+v, want column %q value %q target %q rule %q", e, tt.col, tt.value, tt.target, tt.what)
			}
			if len(r.Variant.Fields) != 2 || r.Variant.Stock.Set || len(r.Tiers) != 0 {
				t.Errorf("the negative value was kept: %+v %+v", r.Variant, r.Tiers)
			}
		})
	}
}

func TestEvalDateWithTimeOfDay(t *testing.T) {
	t.Parallel()
	src := minimal + `variant:
  notes: {column: Made, type: date}
  description: {column: Made, expr: date(value)}
`
	p := program(t, src, "Handle", "Title", "Made")
	tests := []struct {
		cell, notes, description, errHas string
	}{
		{"2024-03-01", "2024-03-01", "2024-03-01", ""},
		{"2024-03-01 00:00:00", "2024-03-01", "2024-03-01", ""}, // midnight: nothing is lost
		{"2024-03-01 14:30", "", "2024-03-01", "has a time of day, 14:30, and variant.notes takes a date only: the time would be lost"},
		{"2024-03-01T09:00:00+01:00", "", "2024-03-01", "has a time of day, 09:00:00+01:00,"},
	}
	for _, tt := range tests {
		t.Run(tt.cell, func(t *testing.T) {
			r := eval(t, p, "h", "T", tt.cell)
			fields := map[string]string{}
			for _, f := range r.Variant.Fields {
				fields[f.Name] = f.Value
			}
			if fields["notes"] != tt.notes || fields["description"] != tt.description {
				t.Errorf("notes %q description %q, want %q %q", fields["notes"], fields["description"], tt.notes, tt.description)
			}
			switch {
			case tt.errHas == "" && len(r.Errors) > 0:
				t.Errorf("errors %v", r.Errors)
			case tt.errHas != "" && (len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Rule, tt.errHas) || r.Errors[0].Column != "Made" || r.Errors[0].Value != tt.cell):
				t.Errorf("errors %v, want one for column Made value %q with %q", r.Errors, tt.cell, tt.errHas)
			}
		})
	}
}

// With decimal ",", a negative fraction in a cell is refused like any
// other negative, and a number an expression computes (written with
// '.') is read as the number it is.
func TestEvalDecimalComma(t *testing.T) {
	t.Parallel()
	src := "source:\n  decimal: \",\"\n" + minimal + `variant:
  weight: W
  cost: {expr: 'number(C) / 4'}
  low_stock_alert: {expr: 'number(C) * 2', type: integer}
  supplier_cost: {expr: 'text(number(C) / 4)'}
tiers:
  columns:
    Retail: P
`
	p := program(t, src, "Handle", "Title", "W", "C", "P")
	tests := []struct {
		name   string
		cells  []string
		fields map[string]string
		errs   map[string]string // target: the words of its rule
	}{
		{"fractions", []string{"h", "T", "1,5", "5", "2.000,25"}, map[string]string{"weight": "1.5", "cost": "1.25", "low_stock_alert": "10"}, map[string]string{
			"variant.supplier_cost": `must be a number (decimal ",")`, // text, written as the expression wrote it
		}},
		{"negative fractions", []string{"h", "T", "-0,2", "-6", "-1,50"}, map[string]string{"low_stock_alert": "-12"}, map[string]string{
			"variant.weight":        "must be 0 or more: a negative weight",
			"variant.cost":          "must be 0 or more: a negative cost",
			"variant.supplier_cost": `must be a number (decimal ",")`,
			"tier Retail":           "must be 0 or more: a negative price",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := eval(t, p, tt.cells...)
			fields := map[string]string{}
			for _, f := range r.Variant.Fields {
				fields[f.Name] = f.Value
			}
			if !maps.Equal(fields, tt.fields) {
				t.Errorf("fields %v, want %v", fields, tt.fields)
			}
			if len(r.Errors) != len(tt.errs) {
				t.Errorf("errors %v, want %v", r.Errors, tt.errs)
			}
			for _, e := range r.Errors {
				if w, ok := tt.errs[e.Target]; !ok || !strings.Contains(e.Rule, w) {
					t.Errorf("error %+v, want one with %q", e, w)
				}
			}
		})
	}
}

// trim takes from a cell what strings.TrimSpace takes: ASCII and Unicode
// spaces at either end, nothing else.
func TestTrim(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "a", " a", "a ", "\ta\n", "\u00a0a", "a\u00a0", "\u0085x", "x\u2003", "\x7f", "\x01a\x01",
		"é", " é ", "~!", "a b", "\r\n", "\u3000", "ab\xff", "\xffab"} {
		if got, want := trim(s), strings.TrimSpace(s); got != want {
			t.Errorf("trim(%q) = %q, want %q", s, got, want)
		}
	}
}
