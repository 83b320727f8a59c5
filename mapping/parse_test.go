package mapping

import (
	"errors"
	"strings"
	"testing"
)

const minimal = "group:\n  key: Handle\nproduct:\n  name: Title\n"

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		yaml      string
		line, col int
		wantAll   []string
	}{
		{"unknown top key", minimal + "variants:\n  sku: SKU\n", 5, 1, []string{`unknown key "variants"`, "allowed: source, group", `did you mean "variant"`}},
		{"unknown variant field", minimal + "variant:\n  colour: C\n", 6, 3, []string{`variant: unknown key "colour"`, "weight", "upc", "stock"}},
		{"bad decimal", "source:\n  decimal: \"'\"\n" + minimal, 2, 12, []string{"source.decimal", `"'" is not allowed`, "allowed: ., ,"}},
		{"bad delimiter", "source:\n  delimiter: \"#\"\n" + minimal, 2, 14, []string{"source.delimiter", "allowed: ,, ;, tab, |"}},
		{"bad encoding", "source:\n  encoding: ebcdic\n" + minimal, 2, 13, []string{"allowed: utf-8, utf-16"}},
		{"bad format", "source:\n  format: ods\n" + minimal, 2, 11, []string{"allowed: csv, xlsx"}},
		{"bad header row", "source:\n  header_row: 0\n" + minimal, 2, 15, []string{"header_row must be 1 or more"}},
		{"bad date format", "source:\n  date_formats: [\"DD/QQ/YYYY\"]\n" + minimal, 2, 17, []string{`unknown letter "Q"`, "YYYY"}},
		{"bad group by", "group:\n  by: handle\n  key: Handle\nproduct:\n  name: Title\n", 2, 7, []string{"allowed: key, parent, children"}},
		{"no key", "product:\n  name: Title\n", 1, 1, []string{"group.key is required"}},
		{"no name", "group:\n  key: Handle\n", 1, 1, []string{"product.name is required"}},
		{"parent without by", minimal + "group2: x\n", 5, 1, []string{`unknown key "group2"`}},
		{"parent needs by parent", "group:\n  key: SKU\n  parent: Parent\nproduct:\n  name: Name\n", 3, 11, []string{"group.parent applies only with group.by: parent"}},
		{"by parent needs parent", "group:\n  by: parent\n  key: SKU\nproduct:\n  name: Name\n", 3, 8, []string{"group.parent is required"}},
		{"value spec unknown key", minimal + "variant:\n  weight: {colum: W}\n", 6, 12, []string{`unknown key "colum"`, "allowed: column, value, expr", `did you mean "column"`}},
		{"value spec two sources", minimal + "variant:\n  weight: {column: W, value: \"1\"}\n", 6, 11, []string{"exactly one of column, value or expr"}},
		{"expr syntax", minimal + "variant:\n  weight: {expr: \"number(\"}\n", 6, 18, []string{"expression does not parse"}},
		{"bad type", minimal + "variant:\n  weight: {column: W, type: float}\n", 6, 29, []string{"allowed: text, number, integer, date"}},
		{"bad bool", minimal + "variant:\n  weight: {column: W, required: maybe}\n", 6, 33, []string{"must be true or false"}},
		{"split on scalar", minimal + "variant:\n  upc: {column: U, split: \",\"}\n", 6, 20, []string{"split applies only to list values"}},
		{"pair missing value", minimal + "options:\n  pairs:\n    - {name: N}\n", 7, 7, []string{"needs both name and value"}},
		{"skip missing reason", minimal + "skip:\n  - when: Type == \"x\"\n", 6, 5, []string{"needs when", "reason"}},
		{"skip not a list", minimal + "skip:\n  when: x\n", 6, 3, []string{"skip must be a list"}},
		{"variant not a mapping", minimal + "variant: SKU\n", 5, 10, []string{"variant must be a mapping"}},
		{"duplicate key", "group:\n  key: Handle\n  key: Other\nproduct:\n  name: Title\n", 3, 3, []string{`"key" already defined`}},
		{"syntax", "group:\n  key: [Handle\n", 2, 8, []string{"YAML syntax"}},
		{"join needs key", minimal + "join:\n  file: combos.csv\n", 6, 3, []string{"join needs file", "key"}},
		{"alias", minimal + "variant:\n  weight: &w W\n  cost: *w\n", 7, 9, []string{"variant.cost: aliases (*name) are not supported"}},
		{"option column without name", minimal + "options:\n  columns:\n    - {}\n", 7, 7, []string{"options.columns[0] needs a name"}},
		{"tier spec", minimal + "tiers:\n  columns:\n    Retail: {colum: P}\n", 7, 14, []string{`tier Retail: unknown key "colum"`}},
		{"table not a mapping", minimal + "tables:\n  t: [a]\n", 6, 6, []string{"tables.t must be a mapping"}},
		{"empty", "", 1, 1, []string{"the mapping is empty"}},
		{"two documents", minimal + "---\nx: 1\n", 5, 1, []string{`one YAML document; remove the "---" separator`}},
		{"an empty second document", minimal + "---\n", 5, 1, []string{`one YAML document`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("m.yaml", []byte(tt.yaml))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.Line != tt.line || e.Column != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", e.Line, e.Column, tt.line, tt.col, err)
			}
			if !strings.HasPrefix(err.Error(), "m.yaml:") {
				t.Errorf("error %q does not name the file", err)
			}
			for _, w := range tt.wantAll {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestParseFull(t *testing.T) {
	t.Parallel()
	src := `
source:
  format: xlsx
  sheet: Products
  header_row: 2
  delimiter: tab
  encoding: windows-1252
  decimal: ","
  date_formats: ["DD/MM/YYYY"]
  allow_short_rows: true
group:
  by: children
  key: SKU
  children: {column: Children, split: ";"}
product:
  name: Name
  notes: {column: Notes, clear_when_empty: true}
  tags: {expr: 'list(Tags)'}
variant:
  sku: {column: SKU, required: true}
  weight: {column: Weight, default: "0"}
  low_stock_alert: Alert
options:
  columns: [Color, {name: Size, column: Taille}]
  list: Attrs
  list_separator: ";"
  ignore: [n/a]
tiers:
  prefix: "price:"
  columns:
    Retail: {column: Price}
tables:
  colours: {rouge: Red}
skip:
  - when: Status == "draft"
    reason: "draft ({Status})"
`
	m, err := Parse("full.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := m.Source
	if s.Format != "xlsx" || s.Sheet != "Products" || s.HeaderRow != 2 || s.Delimiter != '\t' || s.Encoding != "windows-1252" || s.Decimal != "," || s.DateFormats[0] != "DD/MM/YYYY" || !s.AllowShortRows {
		t.Errorf("source = %+v", s)
	}
	if m.Group.By != ByChildren || m.Group.Children.Split != ";" || m.Group.Children.Kind != KindList {
		t.Errorf("group = %+v", m.Group)
	}
	if !m.Product.Notes.ClearWhenEmpty || m.Product.Tags.Expr != "list(Tags)" {
		t.Errorf("product = %+v", m.Product)
	}
	if !m.Variant.SKU.Required || len(m.Variant.Fields) != 2 || m.Variant.Fields[0].Name != "weight" || m.Variant.Fields[0].Default != "0" || m.Variant.Fields[0].Kind != KindNumber {
		t.Errorf("variant = %+v", m.Variant)
	}
	if len(m.Options.Columns) != 2 || m.Options.Columns[1].Name != "Size" || m.Options.Columns[1].Value.Column != "Taille" || m.Options.ListSeparator != ";" {
		t.Errorf("options = %+v", m.Options)
	}
	if m.Tiers.Prefix != "price:" || m.Tiers.Columns[0].Name != "Retail" {
		t.Errorf("tiers = %+v", m.Tiers)
	}
	if m.Tables["colours"]["rouge"] != "Red" || len(m.Skip) != 1 || m.Skip[0].Reason != "draft ({Status})" {
		t.Errorf("tables %v skip %v", m.Tables, m.Skip)
	}
	if m.Skip[0].Pos.Line != 35 {
		t.Errorf("skip position %+v", m.Skip[0].Pos)
	}
}
