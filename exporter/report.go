package exporter

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"lading/exporter/sheet"
	"lading/internal/utf8text"
)

// ErrReport is wrapped by the errors of a report template that does not
// fit the export it is given to.
var ErrReport = errors.New("report template")

// MismatchError is a report template given to an export of another
// resource than its own. It wraps ErrReport.
type MismatchError struct {
	Report   string // the template's name
	For      string // the resource it is for (PullLines for a pull)
	Resource string // the resource exported
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%v %s is for %s, not %s", ErrReport, e.Report, e.For, e.Resource)
}

func (e *MismatchError) Unwrap() error { return ErrReport }

// Report is a report template: the sheets an export writes, each of chosen
// columns over one kind of row of a resource (a packing slip, one of its
// line items, one of its shipments).
type Report struct {
	Name     string `yaml:"report"`
	Title    string `yaml:"title"`
	Resource string `yaml:"resource"`
	// Summary, when set, names a summary sheet put first in the XLSX
	// workbook of a packing slips export: slips, units and shipping cost
	// by month, by carrier and by status, and a chart (see summary.go).
	Summary string        `yaml:"summary"`
	Sheets  []ReportSheet `yaml:"sheets"`
}

// ReportSheet is one sheet of a report.
type ReportSheet struct {
	Name string `yaml:"name"`
	// Rows names the kind of row the sheet holds, one of the resource's
	// (see Rows).
	Rows string `yaml:"rows"`
	// Sort orders the sheet's rows by these fields ("-" first for
	// descending). The sheet is then held in memory until the listing is
	// read: for working sets (open fulfillments), not whole histories.
	Sort []string `yaml:"sort"`
	// Only, when set, names a numeric field: rows where it is 0 are left
	// out (only: quantity_left gives the lines still to ship).
	Only string `yaml:"only"`
	// Group, when set, names the first field of Sort: rows with one value
	// of it are a group (a pick walk), and each group starts a new printed
	// page of the XLSX sheet.
	Group string `yaml:"group"`
	// Columns are the sheet's columns; none means every field of the rows.
	Columns []ReportColumn `yaml:"columns"`
}

// ReportColumn is one column of a sheet.
type ReportColumn struct {
	Header string `yaml:"header"`
	Field  string `yaml:"field"`
	// Value, given instead of Field, is the column's text in every row:
	// value: "" is an empty column, for a layout's column the export has
	// nothing to fill with.
	Value *string `yaml:"value"`
	// Format is text, integer, number, money, date or datetime; "" means
	// the field's own.
	Format string  `yaml:"format"`
	Width  float64 `yaml:"width"`
	Total  bool    `yaml:"total"`
	// Print: false keeps the column in the XLSX sheet but off its printed
	// pages (ids a reader of the paper does not need). Such columns come
	// first or last in the sheet, so that the printed ones are one block.
	Print *bool `yaml:"print"`
	// Checkbox, given instead of Field, makes the column a box to tick on
	// paper, on every row of the XLSX sheet; CSV files leave it out.
	Checkbox bool `yaml:"checkbox"`
}

// noPrint reports whether c is kept off the printed pages.
func (c ReportColumn) noPrint() bool { return c.Print != nil && !*c.Print }

var formats = map[string]sheet.Kind{"text": sheet.Text, "integer": sheet.Integer, "number": sheet.Number,
	"money": sheet.Money, "date": sheet.Date, "datetime": sheet.DateTime}

// ParseReport reads a report template; name is used in messages.
func ParseReport(name string, data []byte) (*Report, error) {
	var r Report
	if bad := utf8text.Check(data, "the report template"); bad != nil {
		return nil, fmt.Errorf("report template %s: line %d, column %d: %s", name, bad.Line, bad.Column, bad.Msg)
	}
	if err := yaml.UnmarshalWithOptions(data, &r, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("report template %s: %s", name, yaml.FormatError(err, false, true))
	}
	if len(r.Sheets) == 0 {
		return nil, fmt.Errorf("report template %s: no sheets; give sheets: with name, rows and columns", name)
	}
	for i, s := range r.Sheets {
		if s.Name == "" || s.Rows == "" {
			return nil, fmt.Errorf("report template %s: sheet %d needs name and rows (and columns, or none for every field of the rows)", name, i+1)
		}
		if s.Group != "" && (len(s.Sort) == 0 || strings.TrimPrefix(s.Sort[0], "-") != s.Group) {
			return nil, fmt.Errorf("report template %s: sheet %q groups its rows by %q: sort them by it first (sort: [%s, ...])", name, s.Name, s.Group, s.Group)
		}
		for j, c := range s.Columns {
			switch {
			case c.Checkbox && (c.Field != "" || c.Value != nil || c.Header == ""):
				return nil, fmt.Errorf("report template %s: sheet %q, column %d is a check box: give it a header, and no field or value", name, s.Name, j+1)
			case c.Checkbox:
				continue
			case c.Field == "" && c.Value == nil:
				return nil, fmt.Errorf("report template %s: sheet %q, column %d has no field (or value)", name, s.Name, j+1)
			case c.Field != "" && c.Value != nil:
				return nil, fmt.Errorf("report template %s: sheet %q, column %d has a field and a value: give one", name, s.Name, j+1)
			case c.Value != nil && c.Header == "":
				return nil, fmt.Errorf("report template %s: sheet %q, column %d has a value but no header", name, s.Name, j+1)
			}
			if _, ok := formats[c.Format]; c.Format != "" && !ok {
				return nil, fmt.Errorf("report template %s: sheet %q, column %q: format %q; formats: text, integer, number, money, date, datetime", name, s.Name, c.Field, c.Format)
			}
		}
	}
	return &r, nil
}

// entity is a kind of row a resource's export gives: its fields, in the
// default layout's order.
type entity struct {
	name   string
	fields []field
}

type field struct {
	name string
	kind sheet.Kind
}

func (e entity) index(name string) int {
	return slices.IndexFunc(e.fields, func(f field) bool { return f.name == name })
}

func (e entity) names() string {
	n := make([]string, len(e.fields))
	for i, f := range e.fields {
		n[i] = f.name
	}
	return strings.Join(n, ", ")
}

// layoutSheet is a sheet bound to an entity: where each column's cell
// comes from, a field of the entity's rows or, where from is -1, the
// column's value.
type layoutSheet struct {
	sheet  sheet.Sheet
	entity int
	from   []int
	values []string
	sort   []sortKey
	only   int // the field whose 0 leaves a row out; -1 for none
	group  int // the field whose every value starts a printed page; -1 for none
}

type sortKey struct {
	col  int // index into the entity's fields
	desc bool
	kind sheet.Kind
}

// bind checks a report against the resource's entities and returns its
// sheets.
func (r *Report) bind(resource string, ents []entity) ([]layoutSheet, error) {
	if r.Resource != "" && r.Resource != resource {
		return nil, &MismatchError{Report: r.Name, For: r.Resource, Resource: resource}
	}
	if r.Summary != "" && resource != PackingSlips {
		return nil, fmt.Errorf("%w %s: summary: the summary sheet sums up packing slips; %s has none", ErrReport, r.Name, resource)
	}
	var out []layoutSheet
	for _, s := range r.Sheets {
		ls, err := r.bindSheet(resource, ents, s)
		if err != nil {
			return nil, err
		}
		out = append(out, ls)
	}
	return out, nil
}

// bindSheet binds one sheet of the report to the entity of its rows: its
// grouping, its only: field, its columns and its sort keys.
func (r *Report) bindSheet(resource string, ents []entity, s ReportSheet) (layoutSheet, error) {
	ei := slices.IndexFunc(ents, func(e entity) bool { return e.name == s.Rows })
	if ei < 0 {
		var names []string
		for _, e := range ents {
			names = append(names, e.name)
		}
		return layoutSheet{}, fmt.Errorf("%w %s: sheet %q: %s has no rows %q; rows: %s", ErrReport, r.Name, s.Name, resource, s.Rows, strings.Join(names, ", "))
	}
	e := ents[ei]
	ls := layoutSheet{sheet: sheet.Sheet{Name: s.Name, PageBreaks: s.Group != ""}, entity: ei, only: -1, group: -1}
	if s.Group != "" {
		if ls.group = e.index(s.Group); ls.group < 0 {
			return layoutSheet{}, fmt.Errorf("%w %s: sheet %q: cannot group by %q; fields: %s", ErrReport, r.Name, s.Name, s.Group, e.names())
		}
	}
	if s.Only != "" {
		if ls.only = e.index(s.Only); ls.only < 0 || !numericKind(e.fields[ls.only].kind) {
			return layoutSheet{}, fmt.Errorf("%w %s: sheet %q: only: %q is not a numeric field of %s rows; fields: %s", ErrReport, r.Name, s.Name, s.Only, e.name, e.names())
		}
	}
	if err := r.bindColumns(&ls, s, e); err != nil {
		return layoutSheet{}, err
	}
	var err error
	if ls.sort, err = r.sortKeys(s, e); err != nil {
		return layoutSheet{}, err
	}
	return ls, nil
}

// bindColumns adds the sheet's columns to ls, every field of e where the
// sheet names none: where each cell comes from, and its header, kind and
// print settings.
func (r *Report) bindColumns(ls *layoutSheet, s ReportSheet, e entity) error {
	cols := s.Columns
	if len(cols) == 0 {
		for _, f := range e.fields {
			cols = append(cols, ReportColumn{Field: f.name})
		}
	}
	ls.values = make([]string, len(cols))
	for i, c := range cols {
		col := sheet.Column{Header: c.Header, Kind: sheet.Text, Width: c.Width, Total: c.Total, NoPrint: c.noPrint(), Check: c.Checkbox}
		if c.Format != "" {
			col.Kind = formats[c.Format]
		}
		if c.Value != nil || c.Checkbox {
			ls.sheet.Columns = append(ls.sheet.Columns, col)
			ls.from = append(ls.from, -1)
			if c.Value != nil {
				ls.values[i] = *c.Value
			}
			continue
		}
		fi := e.index(c.Field)
		if fi < 0 {
			return fmt.Errorf("%w %s: sheet %q: no field %q in %s rows; fields: %s", ErrReport, r.Name, s.Name, c.Field, e.name, e.names())
		}
		if c.Format == "" {
			col.Kind = e.fields[fi].kind
		}
		col.Header = cmp.Or(c.Header, c.Field)
		ls.sheet.Columns = append(ls.sheet.Columns, col)
		ls.from = append(ls.from, fi)
	}
	return nil
}

// sortKeys gives the sheet's sort keys as fields of e.
func (r *Report) sortKeys(s ReportSheet, e entity) ([]sortKey, error) {
	var keys []sortKey
	for _, k := range s.Sort {
		name, desc := strings.CutPrefix(k, "-")
		fi := e.index(name)
		if fi < 0 {
			return nil, fmt.Errorf("%w %s: sheet %q: cannot sort by %q; fields: %s", ErrReport, r.Name, s.Name, k, e.names())
		}
		keys = append(keys, sortKey{col: fi, desc: desc, kind: e.fields[fi].kind})
	}
	return keys, nil
}

// defaultLayout is one sheet per entity with every field, or, with
// columns, the one entity's chosen columns.
func defaultLayout(ents []entity, columns []string) ([]layoutSheet, error) {
	if len(columns) > 0 && len(ents) > 1 {
		return nil, fmt.Errorf("%w: this export writes several sheets; choose their columns with a report template", ErrColumns)
	}
	var out []layoutSheet
	for ei, e := range ents {
		ls := layoutSheet{sheet: sheet.Sheet{Name: sheetName(e.name)}, entity: ei, only: -1, group: -1}
		want := columns
		if len(want) == 0 {
			for _, f := range e.fields {
				want = append(want, f.name)
			}
		}
		for _, c := range want {
			fi := e.index(strings.TrimSpace(c))
			if fi < 0 {
				return nil, fmt.Errorf("%w %q: this export's columns are %s", ErrColumns, c, e.names())
			}
			ls.sheet.Columns = append(ls.sheet.Columns, sheet.Column{Header: e.fields[fi].name, Kind: e.fields[fi].kind})
			ls.from = append(ls.from, fi)
		}
		out = append(out, ls)
	}
	return out, nil
}

// sheetName is an entity's sheet name: "line_items" → "Line items".
func sheetName(entity string) string {
	s := strings.ReplaceAll(entity, "_", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}

// numericKind reports whether cells of kind k are numbers.
func numericKind(k sheet.Kind) bool {
	return k == sheet.Integer || k == sheet.Number || k == sheet.Money
}
