// The readers' common contract: Open, Options, Source and RowError.

package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Formats accepted in Options.Format.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
)

// Options says how to read a file. The zero value reads a CSV or XLSX
// file chosen by its extension, with the header on the first row, the
// delimiter detected and the encoding taken from the byte order mark (UTF-8
// without one). Sheet applies to XLSX files only, Delimiter and Encoding to
// CSV files only; each is ignored for the other format, so the same Options
// read both the CSV and the XLSX export of a layout.
type Options struct {
	// Format is "csv", "xlsx", or "" to choose by extension: .csv .tsv .txt
	// are CSV, .xlsx .xlsm are XLSX. A file with another extension is XLSX
	// when it starts with the ZIP signature and CSV otherwise.
	Format string
	// Sheet names the XLSX worksheet to read (case-insensitive; a hidden
	// sheet is read when named); "" reads the first visible one.
	Sheet string
	// HeaderRow is the 1-based line (CSV) or row (XLSX) holding the column
	// names; 0 means 1. Rows above it are ignored. When that row is empty,
	// the first non-empty row below it is the header.
	HeaderRow int
	// Delimiter separates CSV cells; 0 detects it among , ; tab and | (see
	// DetectDelimiter).
	Delimiter rune
	// Encoding of a CSV file: "utf-8", "utf-16" (byte order mark decides,
	// little-endian without one), "utf-16le", "utf-16be", "windows-1252",
	// "iso-8859-1", or "" to follow the byte order mark and otherwise read
	// UTF-8. Names are case-insensitive; "utf8", "cp1252" and "latin1" are
	// accepted too.
	Encoding string
	// Decimal is the decimal separator XLSX numbers are written with, '.'
	// or ','; 0 means '.'. Whole numbers whose format groups their digits
	// are grouped with the other one. CSV text is read as written.
	Decimal rune
	// AllowShortRows pads CSV rows that have fewer cells than the header
	// with empty cells. Without it such a row is a RowError: a cell count
	// that does not match the header usually means a cell was split or lost.
	// The last line of a file, when it has no line ending and fewer cells
	// than the header, is always a RowError: the file seems cut off there.
	// XLSX rows are always padded (a sheet does not store trailing empty
	// cells).
	AllowShortRows bool
	// Limits bound what one file may cost to read; the zero value applies
	// the defaults.
	Limits Limits
}

// Default limits, used where Limits leaves a field 0.
const (
	DefaultMaxPartSize = 4 << 30
	DefaultMaxCellSize = 1 << 20
)

// Limits bound what reading an XLSX workbook may cost, so that a small
// file that unzips to gigabytes (by accident or on purpose) is refused with
// a message instead of exhausting memory or disk.
type Limits struct {
	// MaxPartSize is the most bytes one part of an XLSX workbook (a
	// worksheet, the shared strings, the styles) may unzip to; 0 means
	// DefaultMaxPartSize (4 GiB). The sizes in the workbook's ZIP directory
	// are checked before anything is unzipped, and a part that unzips to
	// more than its directory says is refused as damaged.
	MaxPartSize int64
	// MaxCellSize is the most bytes one XLSX cell may hold, and so any run
	// of text or markup in a part; 0 means DefaultMaxCellSize (1 MiB, far
	// more than Excel's 32,767 characters). The cells of one row may hold
	// four times that in all.
	MaxCellSize int
}

// ErrPartLimit and ErrCellLimit are wrapped by the errors of workbooks
// that go over Limits.MaxPartSize and Limits.MaxCellSize.
var (
	ErrPartLimit = errors.New("the XLSX part size limit")
	ErrCellLimit = errors.New("the XLSX cell size limit")
)

// withDefaults fills the fields left 0.
func (l Limits) withDefaults() Limits {
	if l.MaxPartSize <= 0 {
		l.MaxPartSize = DefaultMaxPartSize
	}
	if l.MaxCellSize <= 0 {
		l.MaxCellSize = DefaultMaxCellSize
	}
	return l
}

// Source streams the data rows of one sheet or CSV file. It is meant for
// one goroutine at a time.
type Source interface {
	// Name is the path as given to Open.
	Name() string
	// Sheet is the name of the XLSX worksheet read; "" for CSV.
	Sheet() string
	// Header holds the header row's cells, trimmed, byte order mark removed,
	// trailing empty cells dropped.
	Header() []string
	// Next returns the next non-empty data row and the 1-based line (CSV) or
	// row (XLSX) number where it starts.
	//
	// The row always has len(Header()) cells, short rows padded with "".
	// The slice is reused by the next call: copy it to keep it. The strings
	// in it are not reused and may be kept.
	//
	// At the end Next returns io.EOF. A *RowError concerns that row only
	// (a malformed CSV record, invalid UTF-8, a NUL character, more cells
	// than the header, fewer in CSV unless Options.AllowShortRows, a last
	// line cut off, a shared string the workbook does not have, a
	// spreadsheet's error value, a formula saved without its value):
	// report it and call Next again. For a malformed record the row is nil;
	// otherwise it holds the row's cells as far as they could be read. Any
	// other error is fatal: stop reading.
	Next() (row []string, line int, err error)
	// Close releases the file.
	Close() error
}

// RowError is a problem confined to one row of a file. Reading can go on
// past it.
type RowError struct {
	File   string // path as given to Open
	Sheet  string // XLSX sheet, "" for CSV
	Line   int    // 1-based line (CSV) or row (XLSX)
	Column int    // 1-based column, 0 when the problem is not in one cell
	Msg    string // what is wrong and what to do
}

func (e *RowError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Sheet != "" {
		fmt.Fprintf(&b, ": sheet %q: row %d", e.Sheet, e.Line)
	} else {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// RowsHint estimates how many data rows src will give, to size what holds
// them: a guess from the file's size and its first lines, never more than
// a few million; 0 when there is none (a workbook).
func RowsHint(src Source) int {
	if h, ok := src.(interface{ rowsHint() int }); ok {
		return h.rowsHint()
	}
	return 0
}

// Open opens the CSV or XLSX file at path and reads its header row.
// Errors name the file and say what to change.
func Open(path string, o Options) (Source, error) {
	if o.HeaderRow < 0 {
		return nil, fmt.Errorf("%s: header row %d: must be 1 or more", path, o.HeaderRow)
	}
	if o.HeaderRow == 0 {
		o.HeaderRow = 1
	}
	if o.Decimal != 0 && o.Decimal != '.' && o.Decimal != ',' {
		return nil, fmt.Errorf("%s: decimal separator %q: use . or ,", path, o.Decimal)
	}
	format, err := formatOf(path, o.Format)
	if err != nil {
		return nil, err
	}
	switch format {
	case FormatXLSX:
		return openXLSX(path, o)
	default:
		return openCSV(path, o)
	}
}

// HeaderError is the error of a header row that is not where it was
// looked for: the sheet asked for is not in the workbook, no header row is
// found at or below Options.HeaderRow, or (see Misread) the header read
// lacks what the caller needs, which Err then says. Its message names the
// row the header was looked for at and, for a workbook, its sheets, saying
// which are hidden, so that the right ones can be chosen.
type HeaderError struct {
	Msg string
	Err error // the error Msg adds to, or nil
}

func (e *HeaderError) Error() string {
	if e.Err == nil {
		return e.Msg
	}
	return e.Err.Error() + " (" + e.Msg + ")"
}

func (e *HeaderError) Unwrap() error { return e.Err }

// Misread adds to err, the caller's complaint about the header src read
// (a mapping naming columns it does not have), where src took the header
// from: for a workbook, the row and the sheet, and which sheets it has; for
// a CSV file, the line when it is not the first.
func Misread(src Source, err error) error {
	switch s := src.(type) {
	case *xlsxSource:
		return &HeaderError{Err: err, Msg: fmt.Sprintf("the header was read from row %d of sheet %q of %s, whose sheets are %s",
			s.headerRow, s.sheet, s.name, sheetList(s.sheets))}
	case *csvSource:
		if s.headerLine > 1 {
			return &HeaderError{Err: err, Msg: fmt.Sprintf("the header was read from line %d of %s", s.headerLine, s.name)}
		}
	}
	return err
}

// Label names where rows come from for a person: the file, and the sheet
// of a workbook ("stock.xlsx, sheet "Levels"").
func Label(file, sheet string) string {
	if sheet == "" {
		return file
	}
	return fmt.Sprintf("%s, sheet %q", file, sheet)
}

// zipMagic starts every XLSX file (a ZIP archive).
var zipMagic = []byte("PK\x03\x04")

// formatOf resolves the format of path: given, by extension, or sniffed.
func formatOf(path, given string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(given)) {
	case FormatCSV, "tsv", "txt":
		return FormatCSV, nil
	case FormatXLSX, "xlsm":
		return FormatXLSX, nil
	case "":
	default:
		return "", fmt.Errorf("%s: format %q is not supported: use csv or xlsx", path, given)
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".csv", ".tsv", ".txt":
		return FormatCSV, nil
	case ".xlsx", ".xlsm":
		return FormatXLSX, nil
	case ".xls", ".ods", ".numbers":
		return "", fmt.Errorf("%s: %s files cannot be read: save the sheet as .xlsx or .csv", path, ext)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, len(zipMagic))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(head[:n], zipMagic) {
		return FormatXLSX, nil
	}
	return FormatCSV, nil
}

// headerCells trims the header cells, strips a byte order mark and drops
// trailing empty cells. It returns a new slice.
func headerCells(cells []string) []string {
	h := make([]string, len(cells))
	for i, c := range cells {
		if i == 0 {
			c = strings.TrimPrefix(c, "\uFEFF")
		}
		h[i] = strings.TrimSpace(c)
	}
	for len(h) > 0 && h[len(h)-1] == "" {
		h = h[:len(h)-1]
	}
	return h
}

// allEmpty reports whether every cell is "".
func allEmpty(cells []string) bool {
	for _, c := range cells {
		if c != "" {
			return false
		}
	}
	return true
}

// fitRow copies cells into row (len(row) == header width), padding with "".
// When cells holds non-empty cells beyond the header it returns the 1-based
// column of the first one and the number of cells up to the last non-empty
// one; otherwise 0, 0.
func fitRow(row, cells []string) (extraCol, width int) {
	n := copy(row, cells)
	clear(row[n:])
	for i := len(cells) - 1; i >= len(row); i-- {
		if cells[i] != "" {
			width = i + 1
			break
		}
	}
	if width == 0 {
		return 0, 0
	}
	for i := len(row); i < width; i++ {
		if cells[i] != "" {
			return i + 1, width
		}
	}
	return 0, 0
}

// longRowMsg explains a row with cells beyond the header.
func longRowMsg(width, header, col int, value string) string {
	return fmt.Sprintf("the row has %d cells but the header has %d: column %d holds %q without a header; "+
		"add a header for it or remove the extra cells", width, header, col, clip(value))
}

// clip shortens a cell value quoted in a message.
func clip(s string) string {
	const max = 40
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}

const nulMsg = "the cell holds a NUL character (code 0), which cannot be imported: " +
	"the file may be damaged, or be UTF-16 text read as UTF-8 (then set the source encoding); remove the character"

// nulColumn returns the 1-based column of the first cell holding a NUL
// character, or 0.
func nulColumn(cells []string) int {
	for i, c := range cells {
		if strings.IndexByte(c, 0) >= 0 {
			return i + 1
		}
	}
	return 0
}
