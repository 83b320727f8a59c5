// Package plural writes counts as people read them: "1 row", "3 rows",
// "0 statuses", "1,500 write requests". Every count lading prints goes
// through it, so that none says "1 requests". English's rules are
// go-humanize's; this package only fixes how lading calls them.
package plural

import (
	"github.com/dustin/go-humanize/english"
)

// Count is n and noun, singular or plural as n asks: "1 row", "3 rows",
// "1,500 rows". Only the last word changes ("1 open fulfillment", "2 write
// requests").
func Count[N int | int64](n N, noun string) string {
	if n == -1 {
		return "-1 " + noun
	}
	return english.Plural(int(n), noun, "")
}

// Of is noun as many as n: "row" for 1 (and -1), "rows" otherwise.
func Of[N int | int64](n N, noun string) string {
	return Word(n, noun, "")
}

// Word is one when n is 1 (or -1), else many, or (many "") the plural of
// one: Word(n, "it is", "they are").
func Word[N int | int64](n N, one, many string) string {
	if n == -1 {
		return one
	}
	return english.PluralWord(int(n), one, many)
}
