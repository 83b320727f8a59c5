package mapping

import (
	"fmt"
	"lading/mapping/cell"
	"regexp"
	"strings"
)

// countWords are the words of one job for the cells it reads as a count of
// units (a stock level, the units a row ships, the units a slip packs):
// each job's messages speak of its own work.
type countWords struct {
	// example is what a count looks like, e.g. "a count of units like 12".
	example string
	// negative is the rule a count below zero breaks.
	negative string
	// column names what the column should hold, for a count too large.
	column string
}

var (
	stockCount = countWords{example: "a count of units like 12",
		negative: "must be 0 or more: negative stock is refused (a warehouse cannot hold fewer than 0 units); correct the count, or skip such rows with a skip rule",
		column:   "the stock level"}
	shippedCount = countWords{example: "the units shipped, like 2",
		negative: "must be 1 or more: the units this row ships; correct the count",
		column:   "the units shipped"}
	packedCount = countWords{example: "the units packed, like 2",
		negative: "must be 1 or more: the units of the line item this slip packs; correct the count",
		column:   "the units packed"}
)

// maxUnitDigits bounds a count: every whole number of up to 15 digits is
// exact as the service's numbers (IEEE doubles) hold it, and no stock
// level or parcel is that large.
const maxUnitDigits = 15

// ambiguousCount matches a count a person may have written either way:
// one separator after at most three digits, then three zeros. "1.000" is a
// thousand units to a European warehouse and one unit to an American one;
// "1,000" the other way round. ("0.000" is none either way.)
var ambiguousCount = regexp.MustCompile(`^[+-]?[0-9]{1,3}[.,]000$`)

// count evaluates v as a count of units, read with the source's separators:
// its canonical whole number, or "" with the error in r (given is false
// when the cell is empty and v has no default, for the caller to say what
// is required). A count is written out: an exponent ("1e9") is refused; a
// separator followed by three zeros ("1.000") is refused as ambiguous
// unless the mapping's source sets decimal or thousands.
func (p *Program) count(v *valueProg, row []string, r *Row, w countWords) (n string, given bool) {
	if v == nil {
		return "", false
	}
	raw, ok := p.raw(v, row, r)
	if !ok {
		return "", true
	}
	q, dec := raw.text(), raw.dec
	if q == "" && v.spec.HasDefault {
		q, dec = strings.TrimSpace(v.spec.Default), p.dec
	}
	if q == "" {
		return "", false
	}
	declared := p.m.Source.Decimal != "" || p.m.Source.Thousands != ""
	n, rule := parseCount(q, dec, declared, w)
	if rule != "" {
		p.fieldError(v, r, p.errValue(v, row), rule)
	}
	return n, true
}

// parseCount reads s, written with the decimal separator dec ('.' or ','),
// as a count of units: a whole number, 0 or more, of at most 15 digits,
// written out. declared says the mapping set the separators, so that
// "1.000" is no longer ambiguous. It returns the canonical number ("1,234"
// and "1234.0" with '.' → "1234"), or "" and the rule s breaks in w's
// words, for the person who wrote the cell.
func parseCount(s string, dec byte, declared bool, w countWords) (n, rule string) {
	s = strings.TrimSpace(s)
	if plainCount(s) {
		return s, ""
	}
	return readCount(s, dec, declared, w)
}

// plainCount reports whether s is a count as parseCount gives it back
// (digits, without a leading zero, at most maxUnitDigits), as most are:
// then there is nothing to read.
func plainCount(s string) bool {
	if s == "" || len(s) > maxUnitDigits || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// readCount is parseCount of a trimmed s that is not a plain count.
func readCount(s string, dec byte, declared bool, w countWords) (n, rule string) {
	n, ok := cell.Unbounded(s, dec)
	if !ok {
		return "", fmt.Sprintf("must be a number: %s (decimal %q); correct the cell, or skip rows that hold no count with a skip rule", w.example, string(dec))
	}
	whole, _, _ := strings.Cut(strings.TrimPrefix(n, "-"), ".")
	switch {
	case len(whole) > maxUnitDigits:
		return "", fmt.Sprintf("is too large for a count of units (more than %d digits); check that the quantity column holds %s", maxUnitDigits, w.column)
	case strings.ContainsAny(s, "eE"):
		return "", fmt.Sprintf("must be written out, like %s: a count with an exponent is not how a warehouse counts units; correct the cell", n)
	case strings.HasPrefix(n, "-"):
		return "", w.negative
	case !cell.IsWhole(n):
		return "", fmt.Sprintf("must be a whole number of units: %s is a fraction%s; correct the count", n, otherDecimalHint(s, dec))
	case !declared && ambiguousCount.MatchString(s) && n != "0":
		return "", ambiguousRule(s)
	}
	return n, ""
}

// ambiguousRule says what the two readings of an ambiguous count are, and
// which source setting picks one.
func ambiguousRule(s string) string {
	sep := string(s[strings.IndexAny(s, ".,")])
	t := strings.TrimPrefix(s, "+")
	asDecimal, _, _ := strings.Cut(t, sep)
	return fmt.Sprintf("is ambiguous: %s is %s units if %q groups thousands, or %s if %q is the decimal separator; say which under source in the mapping (thousands: %q, or decimal: %q)",
		s, strings.ReplaceAll(t, sep, ""), sep, asDecimal, sep, sep, sep)
}

// otherDecimalHint says, for a fraction that would be a whole number read
// with the other decimal separator ("1.234" with '.'), which setting
// reads it so.
func otherDecimalHint(s string, dec byte) string {
	other := byte(',')
	if dec == ',' {
		other = '.'
	}
	n, ok := cell.ParseNumber(s, other)
	if !ok || !cell.IsWhole(n) || strings.IndexByte(s, dec) < 0 {
		return ""
	}
	return fmt.Sprintf(" (read with decimal %q; if it means %s units, the file groups thousands with %q: set decimal: %q under source)", string(dec), n, string(dec), string(other))
}
