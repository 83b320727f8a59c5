package sheet

import (
	"strconv"

	"github.com/xuri/excelize/v2"
)

// Summary is the content of a workbook's summary sheet (Options.Summary):
// lines of text at the top, the first one a title, then tables one under
// the other and a chart beside them. It is small, and written whole at
// Close.
type Summary struct {
	Lines  []string
	Tables []Table
	Chart  *Chart
}

// Table is a table of a summary: a bold title, a header row, rows, a bold
// totals row ("Total" in its first cell when that is empty; none when
// Total is nil), and a note under it.
type Table struct {
	Title   string
	Columns []Column // each column's header and kind
	Rows    [][]Cell
	Total   []Cell
	Note    string
}

// Cell is a cell of a summary's table: its value, as Row takes cells, and
// the formula that computes it, if any. A cell with a formula keeps the
// value given, for programs that do not calculate, and the formula keeps
// it in step when the sheets it reads are edited. Sum, in a totals row,
// makes the cell the sum of the table's rows above, a formula with its
// value.
type Cell struct {
	Value   string
	Formula string
	Sum     bool
}

// Chart is a column chart of one table of a summary, beside the tables: a
// category per row of the table (named in its first column), and a
// series per column of Series, stacked.
type Chart struct {
	Title  string
	Table  int
	Series []int
}

// DataRange is a formula's reference to the data rows of column col
// (0-based) of the sheet name holding rows data rows:
// 'Slips'!$C$2:$C$13.
func DataRange(name string, col, rows int) string {
	c, _ := excelize.ColumnNumberToName(col + 1)
	return quoteSheet(name) + "!$" + c + "$2:$" + c + "$" + strconv.Itoa(max(rows, 1)+1)
}

// quoteSheet is a sheet's name as formulas and defined names write it.
func quoteSheet(name string) string { return "'" + name + "'" }

// Summary sheet layout.
const (
	summaryMinWidth = 12   // characters, of each column
	chartWidth      = 640  // pixels
	chartHeight     = 360  // pixels
	chartChars      = 92.0 // characters of a column as wide as the chart
)

// tableAt is where a written table is: its header row and its rows.
type tableAt struct {
	header, first, last int
}

// writeSummary writes the summary sheet: widths, lines, tables, chart,
// page setup. Its StreamWriter is made now, after the data sheets'
// (excelize takes them in any order), and flushed at once.
func (b *book) writeSummary() error {
	fit := true
	if err := b.f.SetSheetProps(b.summaryName, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(b.summaryName)
	if err != nil {
		return err
	}
	s := b.summaryContent
	widths := summaryWidths(s)
	for c, w := range widths {
		if err := sw.SetColWidth(c+1, c+1, w); err != nil {
			return err
		}
	}
	row := 1
	for i, line := range s.Lines {
		style := 0
		if i == 0 {
			style = b.style.title
		}
		if err := sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: style, Value: line}}); err != nil {
			return err
		}
		row++
	}
	at := make([]tableAt, len(s.Tables))
	for i, t := range s.Tables {
		row++ // a blank row before each table
		if at[i], row, err = b.writeTable(sw, t, row); err != nil {
			return err
		}
	}
	if err := b.addChart(s, at, len(widths), len(s.Lines)+2); err != nil {
		return err
	}
	pw := widths
	if s.Chart != nil {
		pw = append(pw, 1, chartChars)
	}
	if err := b.printSetup(b.summaryName, pw, false); err != nil {
		return err
	}
	return sw.Flush()
}

// writeTable writes t from row on and returns where it is and the row
// after it.
func (b *book) writeTable(sw *excelize.StreamWriter, t Table, row int) (tableAt, int, error) {
	if err := sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: b.style.header, Value: t.Title}}); err != nil {
		return tableAt{}, 0, err
	}
	row++
	header := make([]any, len(t.Columns))
	for c, col := range t.Columns {
		header[c] = excelize.Cell{StyleID: b.style.headerStyle(col.Kind), Value: col.Header}
	}
	if err := sw.SetRow(cellName(1, row), header); err != nil {
		return tableAt{}, 0, err
	}
	at := tableAt{header: row, first: row + 1, last: row + len(t.Rows)}
	row++
	for _, r := range t.Rows {
		if err := sw.SetRow(cellName(1, row), b.summaryRow(t, r, b.style.value, at)); err != nil {
			return tableAt{}, 0, err
		}
		row++
	}
	if t.Total != nil {
		total := b.summaryRow(t, t.Total, b.style.total, at)
		if len(t.Total) == 0 || t.Total[0] == (Cell{}) {
			total[0] = excelize.Cell{StyleID: b.style.header, Value: "Total"}
		}
		if err := sw.SetRow(cellName(1, row), total); err != nil {
			return tableAt{}, 0, err
		}
		row++
	}
	if t.Note != "" {
		if err := sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: b.style.note, Value: t.Note}}); err != nil {
			return tableAt{}, 0, err
		}
		row++
	}
	return at, row, nil
}

// summaryRow is a row of cells of t in the styles given, whose sums are
// over the table's rows at.
func (b *book) summaryRow(t Table, cells []Cell, styles [DateTime + 1]int, at tableAt) []any {
	out := make([]any, max(len(t.Columns), len(cells)))
	for c, cell := range cells {
		k := Text
		if c < len(t.Columns) {
			k = t.Columns[c].Kind
		}
		formula := cell.Formula
		if cell.Sum {
			col, _ := excelize.ColumnNumberToName(c + 1)
			formula = "SUM(" + col + strconv.Itoa(at.first) + ":" + col + strconv.Itoa(max(at.last, at.first)) + ")"
			cell.Value = columnSum(t, c, k)
		}
		var v any = cell.Value
		switch {
		case cell.Value == "":
			v = nil
		case k.numeric():
			if n, ok := parseNumber(cell.Value, k); ok {
				v = n.v
			}
		case k == Date || k == DateTime:
			if d, ok := parseTime(cell.Value, k, b.loc); ok {
				v = d
			}
		}
		if _, text := v.(string); text {
			out[c] = excelize.Cell{StyleID: styles[Text], Value: v, Formula: formula}
			continue
		}
		out[c] = excelize.Cell{StyleID: styles[k], Value: v, Formula: formula}
	}
	return out
}

// columnSum is the sum of column c (of kind k) of the rows of t, as text.
func columnSum(t Table, c int, k Kind) string {
	var total sum
	for _, r := range t.Rows {
		if c < len(r) {
			if n, ok := parseNumber(r[c].Value, k); ok {
				total.add(n)
			}
		}
	}
	return strconv.FormatFloat(roundTo(total.v, total.decimals), 'f', -1, 64)
}

// addChart puts the chart of s, if any, beside the tables (widest
// columns to its left), from row top.
func (b *book) addChart(s Summary, at []tableAt, columns, top int) error {
	c := s.Chart
	if c == nil || c.Table < 0 || c.Table >= len(s.Tables) || at[c.Table].last < at[c.Table].first {
		return nil
	}
	t, where := s.Tables[c.Table], at[c.Table]
	ref := func(col, from, to int) string {
		name, _ := excelize.ColumnNumberToName(col + 1)
		r := quoteSheet(b.summaryName) + "!$" + name + "$" + strconv.Itoa(from)
		if to > from {
			r += ":$" + name + "$" + strconv.Itoa(to)
		}
		return r
	}
	chart := &excelize.Chart{
		Type:       excelize.ColStacked,
		Title:      excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: c.Title}}},
		Legend:     excelize.ChartLegend{Position: "bottom"},
		Dimension:  excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Format:     excelize.GraphicOptions{PrintObject: &yes, Positioning: "oneCell"},
		VaryColors: &no, // a colour a series, not a bar
	}
	for _, col := range c.Series {
		if col <= 0 || col >= len(t.Columns) {
			continue
		}
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name:       ref(col, where.header, where.header),
			Categories: ref(0, where.first, where.last),
			Values:     ref(col, where.first, where.last),
		})
	}
	if len(chart.Series) == 0 {
		return nil
	}
	return b.f.AddChart(b.summaryName, cellName(columns+2, top), chart)
}

var yes, no = true, false

// summaryWidths are the widths of the summary's columns: the widest of
// their headers and cells, at least summaryMinWidth.
func summaryWidths(s Summary) []float64 {
	var w []float64
	grow := func(c, n int) {
		for len(w) <= c {
			w = append(w, summaryMinWidth)
		}
		w[c] = min(max(w[c], float64(n+padding)), maxWidth)
	}
	for _, t := range s.Tables {
		for c, col := range t.Columns {
			grow(c, textWidth(col.Header)+1)
			for _, r := range t.Rows {
				if c < len(r) {
					grow(c, cellWidth(r[c].Value, col.Kind))
				}
			}
			if c < len(t.Total) {
				grow(c, cellWidth(t.Total[c].Value, col.Kind)+1)
			}
		}
	}
	return w
}

// cellName is the name of the cell at column col and row (1-based).
func cellName(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}
