package cell

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseNumber reads s as a decimal number written with the decimal
// separator dec ('.' or ',') and returns it as a canonical decimal string:
// no grouping, '.' as decimal point, no leading zeros, no trailing
// fractional zeros ("1.234,50" with ',' → "1234.5"; "007" → "7").
// Thousands separators (the other of '.' and ',', spaces, and "'") are
// accepted only in groups of three digits. An exponent ("1.5E+3") is
// accepted. The result is exact: no floating point is involved. A number
// of more than MaxDigits digits, written out ("1e400" is 401 of them), is
// not one a catalog holds: it is refused rather than sent.
func ParseNumber(s string, dec byte) (string, bool) {
	if canonicalNumber(s, dec) {
		if tooLong(s) {
			return "", false
		}
		return s, true
	}
	neg, intD, fracD, ok := splitNumber(strings.TrimSpace(s), dec)
	if !ok {
		return "", false
	}
	if n := formatDecimal(neg, intD, fracD); !tooLong(n) {
		return n, true
	}
	return "", false
}

// MaxDigits bounds the digits of a number ParseNumber reads: far beyond
// any price, weight or quantity, and a 1e9999 in a cell does not become
// 10,000 bytes.
const MaxDigits = 30

// Unbounded reads s like ParseNumber, whatever its number of digits, for
// a caller that bounds the digits it takes itself.
func Unbounded(s string, dec byte) (string, bool) {
	neg, intD, fracD, ok := splitNumber(strings.TrimSpace(s), dec)
	if !ok {
		return "", false
	}
	return formatDecimal(neg, intD, fracD), true
}

// tooLong reports whether canonical number n has more than MaxDigits
// digits; most are shorter in bytes than that, and are not counted.
func tooLong(n string) bool {
	return len(n) > MaxDigits && digits(n) > MaxDigits
}

// digits counts the digits of a canonical number.
func digits(n string) int {
	d := len(n)
	if strings.HasPrefix(n, "-") {
		d--
	}
	if strings.Contains(n, ".") {
		d--
	}
	return d
}

// canonicalNumber reports whether s is already canonical, so that the
// common case costs no allocation.
func canonicalNumber(s string, dec byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n := i - start
	if n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i == len(s) {
		return !(s[0] == '-' && n == 1 && s[start] == '0')
	}
	if s[i] != '.' || dec != '.' {
		return false
	}
	i++
	fs := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i == len(s) && i > fs && s[i-1] != '0'
}

// splitNumber parses s into sign, integer digits and fraction digits,
// applying any exponent.
func splitNumber(s string, dec byte) (neg bool, intD, fracD string, ok bool) {
	if s == "" {
		return false, "", "", false
	}
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	group := byte(',')
	if dec == ',' {
		group = '.'
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		if exp, ok = exponent(s[i+1:]); !ok {
			return false, "", "", false
		}
	}
	ip, fp := mant, ""
	if i := strings.IndexByte(mant, dec); i >= 0 {
		ip, fp = mant[:i], mant[i+1:]
		if !allDigits(fp) {
			return false, "", "", false
		}
	}
	if ip == "" && fp == "" {
		return false, "", "", false
	}
	if !allDigits(ip) {
		if ip, ok = ungroup(ip, group); !ok {
			return false, "", "", false
		}
	}
	intD, fracD = shiftDigits(ip, fp, exp)
	return neg, intD, fracD, true
}

// exponent reads an exponent's digits (at most four) with their sign.
func exponent(e string) (int, bool) {
	neg := false
	if e != "" && (e[0] == '+' || e[0] == '-') {
		neg = e[0] == '-'
		e = e[1:]
	}
	if e == "" || len(e) > 4 || !allDigits(e) {
		return 0, false
	}
	n, _ := strconv.Atoi(e)
	if neg {
		n = -n
	}
	return n, true
}

// ungroup reads grouped integer digits, d{1,3} (sep d{3})+ with one kind
// of separator (group, a space or an apostrophe), as plain digits.
func ungroup(ip string, group byte) (string, bool) {
	var sep byte
	for j := 0; j < len(ip); j++ {
		c := ip[j]
		if c >= '0' && c <= '9' {
			continue
		}
		if c != group && c != ' ' && c != '\'' {
			return "", false
		}
		if sep == 0 {
			sep = c
		} else if c != sep {
			return "", false
		}
	}
	parts := strings.Split(ip, string(sep))
	if len(parts[0]) == 0 || len(parts[0]) > 3 {
		return "", false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return "", false
		}
	}
	return strings.Join(parts, ""), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// shiftDigits moves the decimal point of intD.fracD by exp places (to the
// right when positive).
func shiftDigits(intD, fracD string, exp int) (string, string) {
	if exp == 0 {
		return intD, fracD
	}
	all := intD + fracD
	point := len(intD) + exp
	switch {
	case point <= 0:
		return "0", strings.Repeat("0", -point) + all
	case point >= len(all):
		return all + strings.Repeat("0", point-len(all)), ""
	}
	return all[:point], all[point:]
}

// formatDecimal is the canonical text of the number ±intD.fracD (see
// appendDecimal).
func formatDecimal(neg bool, intD, fracD string) string {
	if fracD = strings.TrimRight(fracD, "0"); fracD == "" && !neg { // a part of intD: no allocation
		if intD = strings.TrimLeft(intD, "0"); intD != "" {
			return intD
		}
		return "0"
	}
	var buf [40]byte
	return string(appendDecimal(buf[:0], neg, intD, fracD, 0))
}

// appendDecimal appends to b the canonical text of the number whose digits
// are intD.fracD, negative when neg, with its decimal point moved by shift
// places (to the right when positive): no leading zeros, no trailing zeros
// after the point, no point without digits after it, and no "-0".
func appendDecimal(b []byte, neg bool, intD, fracD string, shift int) []byte {
	n, point := len(intD)+len(fracD), len(intD)+shift
	digit := func(i int) byte { // the i-th of intD and fracD's digits
		if i < len(intD) {
			return intD[i]
		}
		return fracD[i-len(intD)]
	}
	first := 0 // the first digit of the integer part that is not a 0
	for first < min(point, n) && digit(first) == '0' {
		first++
	}
	end := n // after the last digit of the fraction that is not a 0
	for end > max(point, 0) && digit(end-1) == '0' {
		end--
	}
	zero := first >= min(point, n) && end <= max(point, 0)
	if neg && !zero {
		b = append(b, '-')
	}
	if first >= min(point, n) {
		b = append(b, '0')
	} else {
		for i := first; i < point; i++ {
			if i < n {
				b = append(b, digit(i))
			} else {
				b = append(b, '0')
			}
		}
	}
	if end <= max(point, 0) {
		return b
	}
	b = append(b, '.')
	for i := point; i < end; i++ {
		if i < 0 {
			b = append(b, '0')
		} else {
			b = append(b, digit(i))
		}
	}
	return b
}

// ShiftNumber returns the canonical number s (read with decimal separator
// dec) with its decimal point moved by places: ShiftNumber("145", '.', -3)
// is "0.145" (grams to kilograms), exactly.
func ShiftNumber(s string, dec byte, places int) (string, error) {
	neg, intD, fracD, ok := splitNumber(strings.TrimSpace(s), dec)
	if !ok {
		return "", fmt.Errorf("%q is not a number (decimal %q)", s, string(dec))
	}
	var buf [40]byte
	return string(appendDecimal(buf[:0], neg, intD, fracD, places)), nil
}

// IsWhole reports whether canonical number s has no fraction.
func IsWhole(s string) bool { return !strings.Contains(s, ".") }

// Scientific reports whether s is a number in the scientific notation a
// spreadsheet shows (and saves to CSV) a long number in: a digit, maybe a
// decimal separator and more digits, E, a sign and the exponent
// ("1.23457E+11", "1,5E+15", "2E+10").
func Scientific(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] < '1' || s[0] > '9' { // as most codes: not looked at further
		return false
	}
	mant, exp, ok := strings.Cut(s, "E")
	if !ok {
		mant, exp, ok = strings.Cut(s, "e")
	}
	if !ok || len(exp) < 2 || exp[0] != '+' && exp[0] != '-' || !allDigits(exp[1:]) || len(mant) == 0 {
		return false
	}
	if mant[0] < '1' || mant[0] > '9' {
		return false
	}
	if len(mant) == 1 {
		return true
	}
	return (mant[1] == '.' || mant[1] == ',') && len(mant) > 2 && allDigits(mant[2:])
}
