package exporter

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"lading/api"
	"lading/exporter/sheet"
)

// resource is what an export of one resource reads: its listing, the
// kinds of rows it gives, and how a page becomes rows.
type resource struct {
	wire     string
	entities []entity
	// rows turns the listing into rows of the entities, through add, and
	// counts records and pages in sum.
	rows func(ctx context.Context, o Options, lo *api.ListOptions, add func(ent int, row []string) error, sum *Summary) error
}

// table writes rows of entities into the sheets of a layout. Sheets that
// sort hold their rows until close; the others stream.
type table struct {
	w      *sheet.Writer
	layout []layoutSheet
	held   [][][]string
	buf    []string
	rows   int
	counts []int // the rows of each sheet
	// tally, when set, sees every row of the listing (a summary's).
	tally func(ent int, row []string)
}

func newTable(w *sheet.Writer, layout []layoutSheet) *table {
	return &table{w: w, layout: layout, held: make([][][]string, len(layout)), counts: make([]int, len(layout))}
}

func (t *table) add(ent int, row []string) error {
	if t.tally != nil {
		t.tally(ent, row)
	}
	for i, ls := range t.layout {
		if ls.entity != ent || (ls.only >= 0 && isZero(row[ls.only])) {
			continue
		}
		t.rows++
		t.counts[i]++
		if len(ls.sort) > 0 {
			t.held[i] = append(t.held[i], slices.Clone(row))
			continue
		}
		if err := t.w.Row(i, t.project(row, ls)...); err != nil {
			return err
		}
	}
	return nil
}

func (t *table) project(row []string, ls layoutSheet) []string {
	t.buf = t.buf[:0]
	for i, j := range ls.from {
		if j < 0 {
			t.buf = append(t.buf, ls.values[i])
			continue
		}
		t.buf = append(t.buf, row[j])
	}
	return t.buf
}

// close writes the held sheets, sorted, and closes the file.
func (t *table) close() error {
	for i, ls := range t.layout {
		rows := t.held[i]
		slices.SortStableFunc(rows, func(a, b []string) int {
			for _, k := range ls.sort {
				c := compareCells(a[k.col], b[k.col], k.kind)
				if k.desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return 0
		})
		for j, r := range rows {
			if ls.group >= 0 && j > 0 && r[ls.group] != rows[j-1][ls.group] {
				if err := t.w.PageBreak(i); err != nil {
					return err
				}
			}
			if err := t.w.Row(i, t.project(r, ls)...); err != nil {
				return err
			}
		}
	}
	return t.w.Close()
}

// compareCells orders two cells of a kind: numbers by value (empty
// first), the rest as text.
func compareCells(a, b string, kind sheet.Kind) int {
	if kind == sheet.Integer || kind == sheet.Number || kind == sheet.Money {
		fa, ea := strconv.ParseFloat(a, 64)
		fb, eb := strconv.ParseFloat(b, 64)
		if ea == nil && eb == nil {
			return cmp.Compare(fa, fb)
		}
	}
	return cmp.Compare(a, b)
}

// exportTable exports a resource through its layout: the report's, or
// the default one.
func exportTable(ctx context.Context, o Options, res resource) (*Summary, error) {
	lo, err := o.Query.ListOptions(res.wire)
	if err != nil {
		return nil, err
	}
	var layout []layoutSheet
	if o.Report != nil {
		layout, err = o.Report.bind(o.Resource, res.entities)
	} else {
		layout, err = defaultLayout(res.entities, o.Columns)
	}
	if err != nil {
		return nil, err
	}
	sheets := make([]sheet.Sheet, len(layout))
	for i, ls := range layout {
		sheets[i] = ls.sheet
	}
	docTitle := title(o.Resource)
	if o.Report != nil && o.Report.Title != "" {
		docTitle = o.Report.Title
	}
	so := o.sheetOptions(docTitle)
	var slips *slipTally
	if o.Report != nil && o.Report.Summary != "" {
		so.Summary, slips = o.Report.Summary, newSlipTally(o.Location)
	}
	w, err := sheet.Create(o.Output, so, sheets...)
	if err != nil {
		return nil, err
	}
	defer w.Discard()
	t := newTable(w, layout)
	if slips != nil {
		t.tally = slips.add
	}
	sum := &Summary{}
	if err := res.rows(ctx, o, lo, t.add, sum); err != nil {
		return nil, err
	}
	if slips != nil {
		if err := w.Summary(slips.summary(so, layout, t.counts)); err != nil {
			return nil, err
		}
	}
	if err := t.close(); err != nil {
		return nil, err
	}
	sum.Rows, sum.Files = t.rows, w.Paths()
	return sum, nil
}

// isZero reports whether a numeric cell is 0 ("0", "0.0", "-0") or empty.
func isZero(s string) bool {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return s == "" || (err == nil && f == 0)
}
