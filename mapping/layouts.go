package mapping

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	hdr "lading/mapping/header"
)

// A fieldLayout recognises a file in the layout of one of lading's
// fixed-schema templates (stock, shipments, slips) whose columns may be
// named otherwise: a stock file of SKU and Qty is the stock template's
// sku and quantity. Names are compared in any case, with _ and - as
// spaces (see layoutName).
type fieldLayout struct {
	// columns are the template's columns, each with the other names a
	// file may give it.
	columns []layoutColumn
	// need are the columns a header must have: one of each group.
	need [][]string
	// others are the names of the other columns the file may have; nil
	// when it may have any. A stock file has few: one with a price is a
	// catalog.
	others []string
	// what the layout is, for Detection.Why.
	what string
}

// layoutColumn is a column of a template and the other names a file may
// give it.
type layoutColumn struct {
	name    string
	aliases []string
}

var skuAliases = []string{"variant sku", "item sku", "seller sku", "article number", "item number", "part number"}

var (
	stockLayout = fieldLayout{
		columns: []layoutColumn{
			{"sku", skuAliases},
			{"quantity", []string{"qty", "available", "on hand", "quantity on hand", "qty on hand", "in stock", "stock", "stock level", "units", "inventory", "quantity available", "available quantity", "qty available"}},
			{"warehouse", []string{"location", "warehouse id", "warehouse name", "site"}},
		},
		need:   [][]string{{"sku"}, {"quantity"}},
		others: []string{"name", "title", "product name", "item name", "description"},
		what:   "a SKU and its units on each row, lading's stock layout",
	}
	shipmentsLayout = fieldLayout{
		columns: []layoutColumn{
			{"fulfillment_id", nil}, {"order_number", []string{"order no", "order #"}}, {"line_item_id", nil},
			{"sku", skuAliases}, {"quantity", []string{"qty", "quantity shipped", "qty shipped", "units shipped"}},
			{"tracking_number", []string{"tracking", "tracking no", "tracking #"}}, {"carrier", nil},
			{"tracking_link", []string{"tracking url"}}, {"cost", nil}, {"shipped_at", []string{"ship date", "shipped on"}}, {"status", nil},
		},
		need: [][]string{{"fulfillment_id", "order_number"}, {"line_item_id", "sku"}, {"quantity"}, {"tracking_number"}},
		what: "the lines shipped and their tracking numbers, lading's shipments layout",
	}
	slipsLayout = fieldLayout{
		columns: []layoutColumn{
			{"slip_key", []string{"slip", "slip no", "slip number", "packing slip"}}, {"order_id", nil},
			{"packing_slip_date", nil}, {"notes", nil}, {"line_item_id", nil}, {"quantity", []string{"qty"}}, {"package", nil},
			{"ship_date", nil}, {"tracking_number", []string{"tracking", "tracking no"}}, {"tracking_link", []string{"tracking url"}},
			{"cost", nil}, {"carrier", nil}, {"delivered", nil},
		},
		need: [][]string{{"slip_key"}, {"order_id"}},
		what: "packing slips by their own reference and their orders, lading's slips layout",
	}
)

// layoutName is the form names are compared in: header.Loose, with _
// and - as spaces.
func layoutName(s string) string {
	return hdr.Loose(strings.NewReplacer("_", " ", "-", " ").Replace(s))
}

// match reports whether header is in l's layout: it has the columns l
// needs and no other columns than l's and l.others. The Detection says
// which columns it found, by the header's names, and which of them the
// template names otherwise.
func (l *fieldLayout) match(header []string) (Detection, bool) {
	found := map[string]string{} // template column → header column
	for _, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if h == "" {
			continue
		}
		name := l.column(h)
		switch {
		case name != "" && found[name] == "":
			found[name] = h
		case name == "" && l.others != nil && !slices.Contains(l.others, layoutName(h)):
			return Detection{}, false
		}
	}
	var has []string
	for _, group := range l.need {
		i := slices.IndexFunc(group, func(c string) bool { return found[c] != "" })
		if i < 0 {
			return Detection{}, false
		}
		has = append(has, found[group[i]])
	}
	d := Detection{Why: fmt.Sprintf("its header has %s: %s", andList(has), l.what)}
	for name, h := range found {
		if h != name {
			if d.Columns == nil {
				d.Columns = map[string]string{}
			}
			d.Columns[name] = h
		}
	}
	return d, true
}

// column is the template's column that a header's column h is, or "".
func (l *fieldLayout) column(h string) string {
	n := layoutName(h)
	for _, c := range l.columns {
		if layoutName(c.name) == n || slices.Contains(c.aliases, n) {
			return c.name
		}
	}
	return ""
}

// renameColumns writes the column names of a template's text as a file
// names them (names: the template's name → the file's), where the text
// gives a column: a value (sku: sku) or a column key ({column: sku, ...}),
// outside comments.
func renameColumns(text []byte, names map[string]string) []byte {
	lines := strings.SplitAfter(string(text), "\n")
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for from, to := range names {
			re := regexp.MustCompile(`(:[ \t]+|column:[ \t]*)` + regexp.QuoteMeta(from) + `([ \t]*(?:[,}#]|\n|$))`)
			line = re.ReplaceAllString(line, "${1}"+strings.ReplaceAll(yq(to), "$", "$$")+"${2}")
		}
		lines[i] = line
	}
	return []byte(strings.Join(lines, ""))
}
