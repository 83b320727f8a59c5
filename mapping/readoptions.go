package mapping

import "lading/source"

// ReadOptions are the settings to open a file described by s with, under
// limits.
func (s Source) ReadOptions(limits source.Limits) source.Options {
	return source.Options{Format: s.Format, Sheet: s.Sheet, HeaderRow: s.HeaderRow, Delimiter: s.Delimiter,
		Encoding: s.Encoding, Decimal: rune(decimalOf(s)), AllowShortRows: s.AllowShortRows, Limits: limits}
}
