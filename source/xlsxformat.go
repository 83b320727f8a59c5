package source

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

// A cell's style (its s attribute, an index into the styles part's
// cellXfs) gives its number format: a built-in one by id, or a custom code
// from numFmts. The reader needs to know two things of it: whether the
// number is a date or time (Excel stores dates as day numbers), and whether
// the format only pads or groups the digits of whole numbers
// ("000000000000" shows 36000291452 as 036000291452, "#,##0" shows 1234
// as 1,234), which a code like a UPC depends on. Other formats (decimals,
// currencies, percentages, scientific) change how a number looks, not
// what it is: the number is read as Excel holds it.

// numFormat is what a number format means for reading a numeric cell.
type numFormat struct {
	// date is the kind of date or time the format shows; notDate for
	// others.
	date dateKind
	// digits, when above 0, says the format only pads or groups whole
	// numbers: at least digits digits, zero-padded on the left, grouped by
	// thousands when group.
	digits uint8
	group  bool
	// negSection: the format has a section of its own for negative
	// numbers (brackets, colours), which pads or groups nothing: negative
	// numbers are read as Excel holds them.
	negSection bool
}

// maxPadDigits bounds the zero padding read from a format: a code as long
// as a UPC-A (12), an EAN-13 (13) or a GTIN-14 is common, hundreds are not.
const maxPadDigits = 30

// maxStyles bounds the cell formats read; Excel allows 64,000.
const maxStyles = 1 << 16

// builtinFormat is the meaning of Excel's built-in number format id.
func builtinFormat(id int) numFormat {
	switch id {
	case 1: // 0
		return numFormat{digits: 1}
	case 3: // #,##0
		return numFormat{digits: 1, group: true}
	case 37, 38: // #,##0 ;(#,##0) and #,##0 ;[Red](#,##0)
		return numFormat{digits: 1, group: true, negSection: true}
	}
	return numFormat{date: builtinDateKind(id)}
}

// customFormat is the meaning of a custom number format code.
func customFormat(code string) numFormat {
	if k := customDateKind(code); k != notDate {
		return numFormat{date: k}
	}
	first, rest, more := strings.Cut(code, ";")
	f := padGroup(first)
	f.negSection = more && strings.TrimSpace(rest) != ""
	return f
}

// padGroup reads the section of a format code for positive numbers: when
// it holds only digit placeholders (0 and #) and thousands separators
// between them, leaving out spaces and the alignment spaces of _x, it
// returns how many digits it pads to and whether it groups; otherwise the
// zero value. A comma after the last placeholder divides by 1,000 and a
// decimal point shows decimals: neither only pads nor groups.
func padGroup(section string) numFormat {
	var f numFormat
	zeros, placeholders, lastComma := 0, 0, false
	for i := 0; i < len(section); i++ {
		switch c := section[i]; c {
		case '0':
			zeros++
			placeholders++
			lastComma = false
		case '#':
			placeholders++
			lastComma = false
		case ',':
			if placeholders == 0 {
				return numFormat{}
			}
			f.group, lastComma = true, true
		case ' ':
		case '_':
			i++ // _x: a space as wide as x
		default:
			return numFormat{}
		}
	}
	if placeholders == 0 || lastComma || zeros > maxPadDigits {
		return numFormat{}
	}
	// A format without a 0 (#,###) shows nothing for 0; a number is never
	// read as nothing: it shows at least one digit.
	f.digits = uint8(max(zeros, 1))
	return f
}

// pads reports whether f changes how a whole number is shown.
func (f numFormat) pads() bool { return f.digits > 1 || f.group }

// loadNumFormats reads the number format of each cell style from the
// styles part name; a workbook without one has only General numbers.
func loadNumFormats(p *xlsxPackage, name string) ([]numFormat, error) {
	if name == "" || p.part(name) == nil {
		return nil, nil
	}
	custom := map[int]string{}
	var ids []int
	inCellXfs := false
	err := p.eachElement(name, func(local string, attrs []xml.Attr) error {
		switch local {
		case "numFmt":
			if len(custom) == maxStyles {
				return fmt.Errorf("more than %d number formats", maxStyles)
			}
			if id, err := strconv.Atoi(attr(attrs, "numFmtId")); err == nil {
				custom[id] = attr(attrs, "formatCode")
			}
		case "cellXfs":
			inCellXfs = true
		case "cellStyleXfs", "cellStyles", "dxfs", "tableStyles", "colors", "extLst":
			inCellXfs = false
		case "xf":
			if !inCellXfs {
				return nil
			}
			if len(ids) == maxStyles {
				return fmt.Errorf("more than %d cell formats, more than Excel allows", maxStyles)
			}
			id, _ := strconv.Atoi(attr(attrs, "numFmtId"))
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	formats := make([]numFormat, len(ids))
	for i, id := range ids {
		if code, ok := custom[id]; ok {
			formats[i] = customFormat(code)
		} else {
			formats[i] = builtinFormat(id)
		}
	}
	return formats, nil
}
