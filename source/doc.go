// Package source reads the rows of CSV and XLSX files: catalog exports,
// stock lists, shipment sheets. It knows nothing of what the rows mean.
//
// Open returns a Source that streams one file's data rows, each with the
// line (CSV) or row (XLSX) number a person sees in the file, and each as
// wide as the header row. Options say where the header is and, when
// detection is not enough, how the file is written.
//
// # Formats
//
// The format follows the extension: .csv .tsv .txt are CSV, .xlsx .xlsm
// are XLSX. A file with another extension is XLSX when it starts with the
// ZIP signature and CSV otherwise. .xls, .ods and .numbers files are
// refused with a message asking for .xlsx or .csv.
//
// # Encodings
//
// CSV text is UTF-8 unless Options.Encoding says otherwise: UTF-16 (little
// or big endian) and windows-1252 or ISO-8859-1 are decoded to UTF-8. Without
// an encoding a byte order mark decides between UTF-8 and UTF-16; a UTF-8
// byte order mark is removed. A UTF-8 file holding bytes that are not UTF-8
// (typically a windows-1252 export) is not repaired silently: each row with
// such a cell is a RowError naming the column and suggesting the encoding
// setting.
//
// # Delimiters and line endings
//
// The CSV delimiter is Options.Delimiter, or detected among , ; tab and |
// from the first records at and below the header row (see DetectDelimiter).
// Cells are quoted the RFC 4180 way: a quoted cell may hold delimiters and
// line breaks, and doubles its quotes. Lines end with LF or CRLF; a CRLF
// inside a quoted cell reads as LF. A file whose first 256 KiB hold CRs and
// no LF has old Mac line endings (Excel's "CSV (Macintosh)"): its CRs are
// read as LFs. A malformed record (a stray quote, a quoted cell never
// closed) is a RowError for the line it starts on, and reading goes on.
//
// An empty file is an error saying so. Text that looks like UTF-16 without
// a byte order mark (every other byte zero) is an error asking for the
// encoding setting, when none is given.
//
// # XLSX
//
// A workbook is read part by part, straight from the ZIP archive: the
// relationships, the workbook, the styles, the shared strings and the one
// worksheet asked for, each streamed, never whole; other parts are not
// unzipped. Cells longer than Excel's 32,767 characters are read whole,
// not cut. Shared strings are kept in memory up to 64 MiB, and beyond in a
// temporary file that Close removes.
//
// The sheet read is Options.Sheet, or the first visible one: a hidden
// sheet (an old price list kept for reference) is read only when named.
// Source.Sheet says which was read. A sheet that is not in the workbook, or
// no header row found in the sheet, is a *HeaderError naming the
// workbook's sheets and which of them are hidden; Misread adds the same
// to a caller's complaint about the header found.
//
// Cells read as Excel shows them, so that a workbook and its CSV export
// read alike:
//   - Text reads as written, leading zeros kept.
//   - Numbers read at the 15 significant digits Excel keeps and shows:
//     12.199999999999999 (Excel's 12.2) reads "12.2", 3.0000000000000004
//     (=0.1*30) reads "3". A number with more than 15 digits before the
//     decimal point, whose last digits Excel has already lost, reads in
//     scientific notation ("1.23456789012346E+19"). Decimals are written
//     with Options.Decimal.
//   - A number's format is otherwise not applied (12.5 shown as "$12.50"
//     reads "12.5"), except where it only pads or groups the digits of a
//     whole number: with 000000000000 the number 36000291452 reads
//     "036000291452" (a UPC), with #,##0 1234 reads "1,234".
//   - A number whose format is a date or time reads "2006-01-02",
//     "2006-01-02 15:04:05" when the format shows a time and the value has
//     one, or "15:04:05" for time formats, in the 1900 or 1904 date system
//     of the workbook.
//   - A boolean reads "TRUE" or "FALSE".
//   - An error value (#N/A, #REF!, #DIV/0!, ...) is a RowError in whichever
//     column it is, naming the value and the formula it came from; so is a
//     formula saved without the value it computes (files written by
//     programs that do not calculate formulas), which says to open and save
//     the file in a spreadsheet program.
//
// Options.Limits bound what a workbook may cost, so that a small file that
// unzips to gigabytes is refused before memory or disk run out: the sizes
// in the ZIP directory are checked before anything is unzipped (each part
// at most Limits.MaxPartSize, 4 GiB by default; the parts describing the
// workbook at most 64 MiB), and no cell, nor any run of text, whitespace or
// markup in a part, may be longer than Limits.MaxCellSize (1 MiB by
// default; a row's cells four times that together). The error names the
// file, the part and the limit.
//
// A file that is not a workbook (text, an old .xls, an OpenDocument
// spreadsheet, a ZIP of other files) is refused with a message saying what
// it is. A cell referring to a shared string the workbook does not have is
// a RowError.
//
// # Rows
//
// The header row is the first non-empty row at or below Options.HeaderRow;
// its cells are trimmed and trailing empty cells dropped. Empty rows are
// skipped. A row with non-empty cells beyond the header is a RowError. A
// CSV row with fewer cells than the header is a RowError unless
// Options.AllowShortRows, which pads it with empty cells; either way the
// source counts them (ShortRows). The last line of a CSV file, when it has
// no line ending and fewer cells than the header, is a RowError saying the
// file seems cut off there. XLSX rows are padded (a sheet does not store
// trailing empty cells). A cell holding a NUL character is a RowError
// naming its column. A RowError concerns one row and reading can go on
// past it; any other error from Next is fatal.
package source
