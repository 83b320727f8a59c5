package mapping

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"lading/templates"
)

// Detect names the template whose layout header has: catalogs
// ("shopify", "woocommerce", "generic") and stock levels
// ("shopify-inventory", "amazon-fba", and "stock" for a header of sku,
// quantity and warehouse only, as written), or "" when none fits.
func Detect(header []string) string {
	has := func(names ...string) bool {
		for _, n := range names {
			if !slices.ContainsFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), n) }) {
				return false
			}
		}
		return true
	}
	switch {
	case has("Handle", "Option1 Value") && (has("Variant SKU") || has("Variant Price")):
		return "shopify"
	case has("Type", "SKU", "Parent") && (has("Regular price") || has("Attribute 1 name")):
		return "woocommerce"
	case has("product_key", "sku"):
		return "generic"
	case has("Handle", "SKU", "Location") && (has(shopifyAvailable) || has("Available")):
		return "shopify-inventory"
	case has("sku", "fnsku", "afn-fulfillable-quantity"):
		return "amazon-fba"
	case stockLayout(header):
		return "stock"
	}
	return ""
}

// shopifyAvailable is the quantity column of Shopify's inventory export;
// exports before it was renamed call it "Available".
const shopifyAvailable = "Available (not editable)"

// stockLayout reports whether header is lading's stock layout: sku,
// quantity and optionally warehouse, in any order, and no other named
// column.
func stockLayout(header []string) bool {
	var names []string
	for _, h := range header {
		if h = strings.TrimSpace(h); h != "" {
			names = append(names, h)
		}
	}
	return slices.Contains(names, "sku") && slices.Contains(names, "quantity") &&
		!slices.ContainsFunc(names, func(h string) bool { return !slices.Contains(stockKeys, h) })
}

// adapt fits the text of template name to a header whose column names
// vary between versions of the same export: WooCommerce's weight unit,
// Shopify's older inventory export.
func adapt(name string, text []byte, header []string) []byte {
	switch name {
	case "woocommerce":
		for _, h := range header {
			if h = strings.TrimSpace(h); strings.HasPrefix(h, "Weight (") && h != "Weight (lbs)" {
				text = bytes.Replace(text, []byte("Weight (lbs)"), []byte(h), 1)
			}
		}
	case "shopify-inventory":
		if !slices.ContainsFunc(header, func(h string) bool { return strings.EqualFold(strings.TrimSpace(h), shopifyAvailable) }) {
			text = bytes.ReplaceAll(text, []byte("column: "+shopifyAvailable), []byte("column: Available"))
			text = bytes.ReplaceAll(text, []byte(`col("`+shopifyAvailable+`")`), []byte(`col("Available")`))
		}
	}
	return text
}

// Init writes a mapping for a file with header (sourceName names it in the
// text). For a header Detect recognises it returns the template's name and
// text (adapted to the header where a column name varies, like
// WooCommerce's weight unit); otherwise "" and a commented starter mapping
// that lists every column and guesses the main targets of a catalog.
func Init(header []string, sourceName string) (templateName string, yamlText []byte) {
	if name := Detect(header); name != "" {
		text, err := templates.Get(name)
		if err == nil {
			head := fmt.Sprintf("# Mapping for %s, from the %q template (lading mapping init).\n", sourceName, name)
			return name, append([]byte(head), adapt(name, text, header)...)
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
	used := map[string]bool{}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	line := func(key, col, comment string) {
		if col == "" {
			w("  # %s: <column>   # %s\n", key, comment)
		} else {
			w("  %s: %s   # %s\n", key, yq(col), comment)
		}
	}
	w("# Starter mapping for %s (lading mapping init).\n", sourceName)
	w("# The layout was not recognised; lines with a column name are guesses,\n")
	w("# commented lines are targets to fill in. A value is a column name, or a\n")
	w("# mapping with column, value (a constant) or expr (an expression over the\n")
	w("# row, like 'lower(col(\"Colour\"))'). An empty cell never erases a value.\n")
	w("#\n# Columns of %s:\n", sourceName)
	for i, h := range header {
		w("#   %d. %s\n", i+1, yq(strings.TrimSpace(h)))
	}
	w("\nsource:\n  # format: csv          # csv or xlsx; default from the extension\n")
	w("  # delimiter: \",\"       # , ; tab |; default detected\n")
	w("  # encoding: utf-8      # utf-8, utf-16, windows-1252\n")
	w("  decimal: \".\"          # decimal separator of numbers: . or ,\n")
	w("  # date_formats: [\"DD/MM/YYYY\"]\n")

	key := guess(header, used, "product_key", "handle", "parent sku", "group", "product id", "sku", "reference", "id")
	if key == "" && len(header) > 0 {
		key = strings.TrimSpace(header[0])
	}
	w("\ngroup:\n  by: key               # key: rows with the same key form a product; parent; children\n")
	line("key", key, "the product key of each row")
	w("  # parent: <column>    # with by: parent, the column naming a variant's product\n")

	w("\nproduct:\n")
	line("name", guess(header, used, "product name", "name", "title"), "required")
	line("description", guess(header, used, "description", "body"), "")
	line("notes", guess(header, used, "notes", "note"), "")
	tags := guess(header, used, "tags", "tag", "keywords")
	if tags == "" {
		w("  # tags: {column: <column>, split: \",\"}\n")
	} else {
		w("  tags: {column: %s, split: \",\"}\n", yq(tags))
	}

	w("\nvariant:\n")
	line("sku", guess(header, used, "sku", "article", "item number"), "variants without SKU are matched by product key + options")
	line("weight", guess(header, used, "weight"), "number")
	line("cost", guess(header, used, "cost"), "number")
	line("upc", guess(header, used, "upc", "ean", "barcode", "gtin"), "")
	line("stock", guess(header, used, "stock", "quantity", "qty", "inventory"), "opening stock of new variants")

	w("\noptions:\n  # name/value column pairs, fixed columns, or a \"k=v,k=v\" cell:\n")
	w("  # pairs:\n  #   - {name: <attribute name column>, value: <option value column>}\n")
	cols := []string{}
	for _, word := range []string{"color", "colour", "size", "material", "style"} {
		if c := guess(header, used, word); c != "" {
			cols = append(cols, yq(c))
		}
	}
	if len(cols) > 0 {
		w("  columns: [%s]\n", strings.Join(cols, ", "))
	} else {
		w("  # columns: [Color, Size]\n")
	}
	w("  # list: <column>       # cells like \"Color=Red,Size=L\"\n")

	w("\ntiers:\n  # pricing tier name: column\n")
	var tiers []string
	for _, h := range header {
		lh := strings.ToLower(h)
		if !used[h] && strings.Contains(lh, "price") {
			used[h] = true
			tiers = append(tiers, fmt.Sprintf("    %s: %s\n", yq(strings.TrimSpace(h)), yq(strings.TrimSpace(h))))
		}
	}
	if len(tiers) > 0 {
		w("  columns:\n%s", strings.Join(tiers, ""))
	} else {
		w("  # columns:\n  #   Retail: <price column>\n")
	}
	w("\n# skip:\n#   - when: 'col(\"Status\") == \"archived\"'\n#     reason: archived product\n")
	return []byte(b.String())
}
