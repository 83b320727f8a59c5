package source

import (
	"math"
	"strconv"
)

// Excel keeps 15 significant digits of a number and shows no more: 12.2
// is stored as 12.199999999999999 and shown as 12.2, =0.1*30 as
// 3.0000000000000004 and shown as 3. The reader reads every number the way
// Excel shows it in the General format: rounded to 15 significant digits,
// written out in full ("1234.5", "0.001"), in scientific notation when it
// has more than 15 digits before the decimal point (whose last ones Excel
// has already lost: "1.23456789012346E+19"), with the decimal separator
// of Options.Decimal. A whole number whose format only pads or groups its
// digits reads as that format shows it ("036000291452", "1,234").

// excelDigits is how many significant digits Excel keeps.
const excelDigits = 15

// numberText is the text of a numeric cell stored as v, shown with format
// f, dates in the 1904 system when date1904, decimals written with dec.
// buf is scratch space; the result does not share memory with it. A value
// that is not a number is returned as stored.
func numberText(v []byte, f numFormat, date1904 bool, dec byte, buf []byte) (string, []byte) {
	if f == (numFormat{}) && dec == '.' && shortDecimal(v) {
		return string(v), buf // the common case: already as Excel shows it
	}
	x, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return string(v), buf
	}
	if f.date != notDate {
		if s, ok := serialText(x, f.date, date1904); ok {
			return s, buf
		}
	}
	digits, exp := roundDigits(x, buf[:0])
	buf = digits
	out := make([]byte, 0, len(digits)+24)
	if x < 0 && !(len(digits) == 1 && digits[0] == '0') {
		out = append(out, '-')
	}
	switch {
	case exp >= excelDigits || exp < -excelDigits:
		out = appendScientific(out, digits, exp, dec)
	case f.pads() && exp >= len(digits)-1 && !(x < 0 && f.negSection):
		out = appendPadded(out, digits, exp, f, dec)
	default:
		out = appendPlain(out, digits, exp, dec)
	}
	return string(out), buf
}

// shortDecimal reports whether v is a decimal Excel shows as it is: an
// optional minus, a whole part without leading zeros, an optional
// fraction without trailing zeros, 15 digits at most, no exponent.
func shortDecimal(v []byte) bool {
	i := 0
	if len(v) > 0 && v[0] == '-' {
		i++
	}
	start, digits := i, 0
	for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
		digits++
	}
	whole := i - start
	if whole == 0 || whole > 1 && v[start] == '0' {
		return false
	}
	if i == len(v) {
		return digits <= excelDigits && !(start == 1 && whole == 1 && v[1] == '0') // not "-0"
	}
	if v[i] != '.' {
		return false
	}
	i++
	fs := i
	for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
		digits++
	}
	return i == len(v) && i > fs && v[i-1] != '0' && digits <= excelDigits
}

// roundDigits returns the significant digits of |x| rounded to 15, without
// trailing zeros ("122" for 12.199999999999999, "0" for 0), appended to
// buf, and the decimal exponent of the first digit (1 for 12.2).
func roundDigits(x float64, buf []byte) ([]byte, int) {
	if x == 0 {
		return append(buf, '0'), 0
	}
	// d.dddddddddddddde±dd
	e := strconv.AppendFloat(buf, math.Abs(x), 'e', excelDigits-1, 64)
	mark := len(buf)
	exp, _ := strconv.Atoi(string(e[mark+excelDigits+2:]))
	digits := append(e[:mark+1], e[mark+2:mark+excelDigits+1]...)
	for len(digits) > mark+1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits[mark:], exp
}

// appendPlain writes digits with exponent exp out in full: "12.2",
// "0.001", "1200".
func appendPlain(out, digits []byte, exp int, dec byte) []byte {
	if exp < 0 {
		out = append(out, '0', dec)
		for range -exp - 1 {
			out = append(out, '0')
		}
		return append(out, digits...)
	}
	if exp >= len(digits)-1 {
		out = append(out, digits...)
		for range exp - len(digits) + 1 {
			out = append(out, '0')
		}
		return out
	}
	out = append(out, digits[:exp+1]...)
	out = append(out, dec)
	return append(out, digits[exp+1:]...)
}

// appendScientific writes digits with exponent exp as Excel's General
// format does for numbers too long to show: "1.23456789012346E+19".
func appendScientific(out, digits []byte, exp int, dec byte) []byte {
	out = append(out, digits[0])
	if len(digits) > 1 {
		out = append(out, dec)
		out = append(out, digits[1:]...)
	}
	out = append(out, 'E')
	if exp < 0 {
		out = append(out, '-')
		exp = -exp
	} else {
		out = append(out, '+')
	}
	if exp < 10 {
		out = append(out, '0')
	}
	return strconv.AppendInt(out, int64(exp), 10)
}

// appendPadded writes the whole number of digits and exp (exp+1 digits
// long) as f shows it: zero-padded to f.digits, grouped by thousands with
// the separator that is not dec.
func appendPadded(out, digits []byte, exp int, f numFormat, dec byte) []byte {
	n := exp + 1
	width := max(n, int(f.digits))
	sep := byte(',')
	if dec == ',' {
		sep = '.'
	}
	for i := range width {
		if f.group && i > 0 && (width-i)%3 == 0 {
			out = append(out, sep)
		}
		switch j := i - (width - n); {
		case j < 0, j >= len(digits):
			out = append(out, '0')
		default:
			out = append(out, digits[j])
		}
	}
	return out
}
