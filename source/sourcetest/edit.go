package sourcetest

import (
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// EditColumn returns the CSV text with edit applied to every cell of the
// column named column (the header left as it is).
func EditColumn(text, column string, edit func(string) string) (string, error) {
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return "", err
	}
	col := -1
	if len(recs) > 0 {
		col = slices.Index(recs[0], column)
	}
	if col < 0 {
		return "", fmt.Errorf("no column %q", column)
	}
	for _, r := range recs[1:] {
		if col < len(r) {
			r[col] = edit(r[col])
		}
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.WriteAll(recs); err != nil {
		return "", err
	}
	return b.String(), nil
}

// Retyped is a code a spreadsheet showed in scientific notation, having
// held it as a number ("3.65275E+11"), entered again as text as a person
// mends such a file: its digits written out ("365275000000"; those the
// spreadsheet lost cannot come back). Other text is returned as it is.
func Retyped(s string) string {
	if !strings.ContainsAny(s, "Ee") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e20 {
		return s
	}
	return strconv.FormatFloat(f, 'f', 0, 64)
}
