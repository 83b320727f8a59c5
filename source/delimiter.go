package source

import "bytes"

// delimiterCandidates are tried by DetectDelimiter, in order of preference
// when they score the same.
var delimiterCandidates = []rune{',', ';', '\t', '|'}

// detectLines is how many records of the sample DetectDelimiter looks at.
const detectLines = 50

// DetectDelimiter guesses the cell delimiter of CSV text from a sample of
// its start: among , ; tab and |, the one that splits the first record (the
// header) into two or more cells and gives the most following records that
// same number of cells. Quoted cells are respected, line breaks inside them
// included. Ties go to more cells, then to the order above. With no
// candidate splitting the header it returns ','.
//
// When the sample does not end with a line break its last record may have
// been cut, so it is ignored, unless it is the only one.
func DetectDelimiter(sample []byte) rune {
	sample = bytes.TrimPrefix(sample, utf8BOM)
	best, bestConsistent, bestWidth := ',', -1, 1
	for _, d := range delimiterCandidates {
		counts := fieldCounts(sample, byte(d), detectLines)
		if len(counts) == 0 || counts[0] < 2 {
			continue
		}
		consistent := 0
		for _, c := range counts[1:] {
			if c == counts[0] {
				consistent++
			}
		}
		if consistent > bestConsistent || consistent == bestConsistent && counts[0] > bestWidth {
			best, bestConsistent, bestWidth = d, consistent, counts[0]
		}
	}
	return best
}

// fieldCounts splits up to max records of sample on delim, honouring
// double-quoted cells, and returns each non-empty record's cell count.
func fieldCounts(sample []byte, delim byte, max int) []int {
	var counts []int
	fields, inQuotes, atCellStart, empty := 1, false, true, true
	for i := 0; i < len(sample) && len(counts) < max; i++ {
		c := sample[i]
		switch {
		case inQuotes:
			if c == '"' {
				if i+1 < len(sample) && sample[i+1] == '"' {
					i++
				} else {
					inQuotes = false
				}
			}
		case c == '"' && atCellStart:
			inQuotes, atCellStart, empty = true, false, false
		case c == delim:
			fields++
			atCellStart, empty = true, false
		case c == '\n' || c == '\r':
			if !empty {
				counts = append(counts, fields)
			}
			fields, atCellStart, empty = 1, true, true
		default:
			atCellStart, empty = false, false
		}
	}
	// An unterminated last record may be cut: keep it only when it is all
	// there is.
	if !empty && len(counts) == 0 {
		counts = append(counts, fields)
	}
	return counts
}
