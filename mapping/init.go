package mapping

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	hdr "lading/mapping/header"
	"lading/templates"
)

// A layoutRule recognises the layout of one template from a file's
// header. Column names are compared in any case and spacing (see
// header.Loose). The rules are tried in order and the first that fits
// wins, so a rule for a layout whose columns another layout also has
// comes before that layout's.
type layoutRule struct {
	template string
	all      []string // columns the header must have
	anyOf    []string // when given, the header must also have one of these
	// fields, when set, decides instead of all and anyOf: the layout of
	// a fixed-schema section (stock, shipments, slips).
	fields *fieldLayout
}

// layoutRules are the layouts mapping init recognises. To recognise a
// new template's layout, add a rule naming the columns that set it apart.
var layoutRules = []layoutRule{
	// Catalogs.
	{template: "shopify", all: []string{"Handle", "Option1 Value"}, anyOf: []string{"Variant SKU", "Variant Price"}},
	{template: "shopify-2024", all: []string{"URL handle", "Option1 value"}, anyOf: []string{"SKU", "Price"}},
	{template: "woocommerce", all: []string{"Type", "SKU", "Parent"}, anyOf: []string{"Regular price", "Attribute 1 name"}},
	{template: "bigcommerce", all: []string{"Product ID", "Code", "Name", "Calculated Price"}},
	{template: "bigcommerce-bulk-edit", all: []string{"Item Type", "Product ID", "Product Name", "Product Code/SKU"}},
	{template: "squarespace", all: []string{"Product ID [Non Editable]", "Variant ID [Non Editable]", "Option Name 1"}},
	{template: "magento2", all: []string{"sku", "product_type", "attribute_set_code"}, anyOf: []string{"additional_attributes", "configurable_variations", "qty"}},
	{template: "prestashop", all: []string{"Product ID", "Name *", "Price tax excluded"}, anyOf: []string{"Reference #", "Quantity"}},
	{template: "generic", all: []string{"product_key", "sku"}},
	// Stock levels.
	{template: "shopify-inventory", all: []string{"Handle", "SKU", "Location"}, anyOf: []string{shopifyAvailable, "Available"}},
	{template: "amazon-fba", all: []string{"sku", "fnsku", "afn-fulfillable-quantity"}},
	// Packing slips and shipments, then stock levels in lading's layouts.
	{template: "slips", fields: &slipsLayout},
	{template: "shipments", fields: &shipmentsLayout},
	{template: "stock", fields: &stockLayout},
}

// Detection is the template whose layout a header has, and why.
type Detection struct {
	Template string
	// Why says what in the header gave the layout away, for people:
	// "its header has Handle, Option1 Value and Variant SKU".
	Why string
	// Columns are, for a layout of lading's own (stock, shipments,
	// slips), the template's column names that the header writes
	// otherwise, with the header's name for each: "quantity" is "Qty".
	Columns map[string]string
}

// Recognise finds the template whose layout header has (see
// layoutRules); ok is false when none fits.
func Recognise(header []string) (d Detection, ok bool) {
	for _, r := range layoutRules {
		if r.fields != nil {
			if d, ok := r.fields.match(header); ok {
				d.Template = r.template
				return d, true
			}
			continue
		}
		if why, ok := r.match(header); ok {
			return Detection{Template: r.template, Why: why}, true
		}
	}
	return Detection{}, false
}

// Detect names the template whose layout header has: catalogs
// ("shopify", "woocommerce", "generic", ...), stock levels
// ("shopify-inventory", "amazon-fba", and "stock" for a header of a SKU
// and a quantity, see stockLayout), shipments and packing slips, or ""
// when none fits.
func Detect(header []string) string {
	d, _ := Recognise(header)
	return d.Template
}

// match reports whether header has r's layout, and why.
func (r layoutRule) match(header []string) (string, bool) {
	found := make([]string, 0, len(r.all)+1)
	for _, name := range r.all {
		h, ok := column(header, name)
		if !ok {
			return "", false
		}
		found = append(found, h)
	}
	if len(r.anyOf) > 0 {
		i := slices.IndexFunc(r.anyOf, func(name string) bool { _, ok := column(header, name); return ok })
		if i < 0 {
			return "", false
		}
		h, _ := column(header, r.anyOf[i])
		found = append(found, h)
	}
	return "its header has " + andList(found), true
}

// column returns the column of header called name in any case and
// spacing (header.Loose), as the header writes it.
func column(header []string, name string) (string, bool) {
	name = hdr.Loose(name)
	for _, h := range header {
		if hdr.Loose(h) == name {
			return strings.TrimSpace(h), true
		}
	}
	return "", false
}

// andList writes names as "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// shopifyAvailable is the quantity column of Shopify's inventory export;
// exports before it was renamed call it "Available".
const shopifyAvailable = "Available (not editable)"

// adapt fits the text of template name to a header whose column names
// vary between versions of the same export and which the template cannot
// name by a pattern: Shopify's older inventory export.
func adapt(d Detection, text []byte, header []string) []byte {
	name := d.Template
	switch {
	case name == "shopify-inventory":
		if !slices.ContainsFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), shopifyAvailable) }) {
			text = bytes.ReplaceAll(text, []byte("column: "+shopifyAvailable), []byte("column: Available"))
			text = bytes.ReplaceAll(text, []byte(`col("`+shopifyAvailable+`")`), []byte(`col("Available")`))
		}
	case len(d.Columns) > 0:
		text = renameColumns(text, d.Columns)
	}
	return text
}

// Init writes a mapping for a file with header (sourceName names it in the
// text). For a header Recognise recognises it returns the template's name
// and text (adapted to the header where a column name varies, like
// Shopify's older inventory export, or a stock file's Qty for the stock
// template's quantity), headed by a comment saying which template it is
// and why; otherwise "" and a commented starter mapping that lists every
// column and guesses the main targets of a catalog.
func Init(header []string, sourceName string) (templateName string, yamlText []byte) {
	if d, ok := Recognise(header); ok {
		text, err := templates.Get(d.Template)
		if err == nil {
			head := fmt.Sprintf("# Mapping for %s, from the %q template:\n# %s.\n", sourceName, d.Template, d.Why)
			return d.Template, append([]byte(head), adapt(d, text, header)...)
		}
	}
	return "", starter(header, sourceName)
}

// guess returns the first column whose lower-cased name contains one of
// words (tried in order), or "".
func guess(header []string, used map[string]bool, words ...string) string {
	for _, w := range words {
		for _, h := range header {
			lh := strings.ToLower(strings.TrimSpace(h))
			if h != "" && !used[h] && (lh == w || strings.Contains(lh, w)) {
				used[h] = true
				return strings.TrimSpace(h)
			}
		}
	}
	return ""
}

func yq(s string) string { return fmt.Sprintf("%q", s) }

func starter(header []string, sourceName string) []byte {
	st := &starterText{header: header, used: map[string]bool{}}
	st.intro(sourceName)
	st.groupAndProduct()
	st.variantAndOptions()
	st.tiers()
	st.b.WriteString(starterImages(header, st.used))
	st.w("\n# skip:\n#   - when: 'col(\"Status\") == \"archived\"'\n#     reason: archived product\n")
	return []byte(st.b.String())
}

// starterText is a starter mapping as it is written: the header's
// columns, those a target has taken, and the text so far.
type starterText struct {
	header []string
	used   map[string]bool
	b      strings.Builder
}

func (st *starterText) w(format string, args ...any) { fmt.Fprintf(&st.b, format, args...) }

// line writes a target with its guessed column, or commented out.
func (st *starterText) line(key, col, comment string) {
	if col == "" {
		st.w("  # %s: <column>   # %s\n", key, comment)
	} else {
		st.w("  %s: %s   # %s\n", key, yq(col), comment)
	}
}

func (st *starterText) guess(words ...string) string { return guess(st.header, st.used, words...) }

// intro writes what the file is, the file's columns and the source section.
func (st *starterText) intro(sourceName string) {
	st.w("# Starter mapping for %s.\n", sourceName)
	st.w("# The layout was not recognised; lines with a column name are guesses,\n")
	st.w("# commented lines are targets to fill in. A value is a column name, or a\n")
	st.w("# mapping with column, value (a constant) or expr (an expression over the\n")
	st.w("# row, like 'lower(col(\"Colour\"))'). An empty cell never erases a value.\n")
	st.w("#\n# Columns of %s:\n", sourceName)
	for i, h := range st.header {
		st.w("#   %d. %s\n", i+1, yq(strings.TrimSpace(h)))
	}
	st.w("\nsource:\n  # format: csv          # csv or xlsx; default from the extension\n")
	st.w("  # delimiter: \",\"       # , ; tab |; default detected\n")
	st.w("  # encoding: utf-8      # utf-8, utf-16, windows-1252\n")
	st.w("  decimal: \".\"          # decimal separator of numbers: . or ,\n")
	st.w("  # date_formats: [\"DD/MM/YYYY\"]\n")
}

// groupAndProduct writes the group and product sections.
func (st *starterText) groupAndProduct() {
	key := st.guess("product_key", "handle", "parent sku", "group", "product id", "sku", "reference", "id")
	if key == "" && len(st.header) > 0 {
		key = strings.TrimSpace(st.header[0])
	}
	st.w("\ngroup:\n  by: key               # key: rows with the same key form a product; parent; children\n")
	st.line("key", key, "the product key of each row")
	st.w("  # parent: <column>    # with by: parent, the column naming a variant's product\n")

	st.w("\nproduct:\n")
	st.line("name", st.guess("product name", "name", "title"), "required")
	st.line("description", st.guess("description", "body"), "")
	st.line("notes", st.guess("notes", "note"), "")
	if tags := st.guess("tags", "tag", "keywords"); tags == "" {
		st.w("  # tags: {column: <column>, split: \",\"}\n")
	} else {
		st.w("  tags: {column: %s, split: \",\"}\n", yq(tags))
	}
}

// variantAndOptions writes the variant and options sections.
func (st *starterText) variantAndOptions() {
	st.w("\nvariant:\n")
	st.line("sku", st.guess("sku", "article", "item number"), "variants without SKU are matched by product key + options")
	st.line("weight", st.guess("weight"), "number")
	st.line("cost", st.guess("cost"), "number")
	st.line("upc", st.guess("upc", "ean", "barcode", "gtin"), "")
	st.line("stock", st.guess("stock", "quantity", "qty", "inventory"), "opening stock of new variants")

	st.w("\noptions:\n  # name/value column pairs, fixed columns, or a \"k=v,k=v\" cell:\n")
	st.w("  # pairs:\n  #   - {name: <attribute name column>, value: <option value column>}\n")
	cols := []string{}
	for _, word := range []string{"color", "colour", "size", "material", "style"} {
		if c := st.guess(word); c != "" {
			cols = append(cols, yq(c))
		}
	}
	if len(cols) > 0 {
		st.w("  columns: [%s]\n", strings.Join(cols, ", "))
	} else {
		st.w("  # columns: [Color, Size]\n")
	}
	st.w("  # list: <column>       # cells like \"Color=Red,Size=L\"\n")
}

// tiers writes the tiers section: every column not taken whose name
// says price.
func (st *starterText) tiers() {
	st.w("\ntiers:\n  # pricing tier name: column\n")
	var tiers []string
	for _, h := range st.header {
		if !st.used[h] && strings.Contains(strings.ToLower(h), "price") {
			st.used[h] = true
			tiers = append(tiers, fmt.Sprintf("    %s: %s\n", yq(strings.TrimSpace(h)), yq(strings.TrimSpace(h))))
		}
	}
	if len(tiers) > 0 {
		st.w("  columns:\n%s", strings.Join(tiers, ""))
	} else {
		st.w("  # columns:\n  #   Retail: <price column>\n")
	}
}
