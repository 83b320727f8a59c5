package results

import "strconv"

// Cells takes the cells of a line from its Cells method, in order, as
// text or as whole numbers (written as gocsv writes an int). It lists
// them, or, for a CSV file, makes the line's text at once while every
// cell is plain (see plainCell): most lines of a large file, written
// without a list of their cells.
type Cells struct {
	list []string
	// text, when making text, is the line so far; plain says every cell
	// was plain, n how many were taken.
	text   []byte
	plain  bool
	n      int
	asText bool
	// columns notes the plain cells by column (see plainColumns).
	columns plainColumns
}

// Text takes a cell of text.
func (c *Cells) Text(s string) {
	if !c.asText {
		c.list = append(c.list, s)
		return
	}
	if !c.plain {
		return
	}
	c.text = c.comma()
	if c.plain = c.columns.plain(c.n-1, s); c.plain {
		c.text = append(c.text, s...)
	}
}

// Int takes a cell of a whole number.
func (c *Cells) Int(n int) {
	if !c.asText {
		c.list = append(c.list, strconv.Itoa(n))
		return
	}
	// A negative number starts with a formula's character: not plain.
	if c.plain = c.plain && n >= 0; c.plain {
		c.text = strconv.AppendInt(c.comma(), int64(n), 10)
	}
}

func (c *Cells) comma() []byte {
	c.n++
	if c.n > 1 {
		return append(c.text, ',')
	}
	return c.text
}

// listOf is the cells of l, in room reused from the line before.
func (c *Cells) listOf(l Celler) []string {
	c.asText, c.list = false, c.list[:0]
	l.Cells(c)
	return c.list
}

// textOf is l's CSV text with its line's end, as a csvSink writes a
// plain line, made in room (appended to room[:0]); false when a cell is
// not plain.
func (c *Cells) textOf(l Celler, room []byte) ([]byte, bool) {
	c.asText, c.text, c.plain, c.n = true, room[:0], true, 0
	l.Cells(c)
	if !c.plain {
		return nil, false
	}
	c.text = append(c.text, '\n')
	return c.text, true
}

// CellsOf is the cells l gives, as a list.
func CellsOf(l Celler) []string {
	var c Cells
	return c.listOf(l)
}
