// Package suggest finds, among the names a program knows, those closest to
// a name a person typed: a command, a flag, a template, a column, an
// operator. Every "did you mean" of lading comes from here, so that they
// all judge closeness alike.
package suggest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Close returns the names of list most like name, best first, at most
// max of them (all when max <= 0). A name is close when it is a few edits
// away (a third of name's length, plus one), or when one of the two holds
// the other (three characters or more); case and surrounding spaces do
// not count.
func Close(name string, list []string, max int) []string {
	type scored struct {
		s string
		d int
		i int
	}
	ln := strings.ToLower(strings.TrimSpace(name))
	var c []scored
	for i, s := range list {
		ls := strings.ToLower(strings.TrimSpace(s))
		d := Distance(ln, ls)
		if d <= len([]rune(ln))/3+1 || (len(ln) >= 3 && strings.Contains(ls, ln)) || (len(ls) >= 3 && strings.Contains(ln, ls)) {
			c = append(c, scored{s, d, i})
		}
	}
	slices.SortStableFunc(c, func(a, b scored) int { return cmp.Compare(a.d, b.d) })
	var out []string
	for _, s := range c {
		if max > 0 && len(out) == max {
			break
		}
		if !slices.Contains(out, s.s) {
			out = append(out, s.s)
		}
	}
	return out
}

// Closest is the name of list most like name, if one is close (see Close).
func Closest(name string, list []string) (string, bool) {
	if c := Close(name, list, 1); len(c) == 1 {
		return c[0], true
	}
	return "", false
}

// DidYouMean is "did you mean X?" for the names of list closest to name
// (up to three, quoted by quote, e.g. "%q" or "--%s"), or "" when none is
// close.
func DidYouMean(name string, list []string, quote string) string {
	c := Close(name, list, 3)
	if len(c) == 0 {
		return ""
	}
	q := make([]string, len(c))
	for i, s := range c {
		q[i] = fmt.Sprintf(quote, s)
	}
	if len(q) == 1 {
		return "did you mean " + q[0] + "?"
	}
	return "did you mean " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1] + "?"
}

// Distance is the Levenshtein distance of a and b in runes: the fewest
// insertions, deletions and substitutions that turn one into the other.
// A byte that is not UTF-8 counts as a rune of its own, unlike any other:
// two such bytes differ where they differ (a Latin-1 "ö" is not a Latin-1
// "ü"), though both would read as U+FFFD.
func Distance(a, b string) int {
	ra, rb := runes(a), runes(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// runes are the runes of s, each byte that is not UTF-8 a rune past
// Unicode's last (utf8.MaxRune), one a byte value.
func runes(s string) []rune {
	out := make([]rune, 0, len(s))
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			r = utf8.MaxRune + 1 + rune(s[0])
		}
		out = append(out, r)
		s = s[n:]
	}
	return out
}
