// Command barexlsx writes a CSV file to XLSX with excelize's StreamWriter
// alone, as its documentation shows, and prints how many rows it wrote:
// the bare loop scripts/bench-export.sh sets lading export beside.
//
//	go run ./scripts/barexlsx -kinds integer,text,money,datetime in.csv out.xlsx
//
// It reads the CSV row by row and writes each row as it reads it: a bold
// header, then each cell in its column's kind (-kinds, one a column: text,
// integer, number, money, date or datetime). Numbers are parsed; integer,
// money and date cells get their number formats (0, #,##0.00, yyyy-mm-dd,
// yyyy-mm-dd hh:mm:ss); a cell that does not read as its kind is written
// as text. Nothing else: no column widths, frozen header, autofilter or
// totals.
package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

func main() {
	kinds := flag.String("kinds", "", "the kind of each column, comma-separated: text, integer, number, money, date, datetime")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: barexlsx -kinds KIND,... IN.csv OUT.xlsx")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	ks, err := parseKinds(*kinds)
	if err != nil {
		fmt.Fprintf(os.Stderr, "barexlsx: -kinds: %v\n", err)
		os.Exit(2)
	}
	n, err := convert(flag.Arg(0), flag.Arg(1), ks)
	if err != nil {
		fmt.Fprintf(os.Stderr, "barexlsx: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(n)
}

// kind is how a column's cells are written.
type kind int

const (
	text kind = iota
	integer
	number
	money
	date
	dateTime
	header // the style of the header row
)

var kindNames = map[string]kind{"text": text, "integer": integer, "number": number, "money": money, "date": date, "datetime": dateTime}

func parseKinds(s string) ([]kind, error) {
	if s == "" {
		return nil, errors.New("give the kind of each column")
	}
	var out []kind
	for _, name := range strings.Split(s, ",") {
		k, ok := kindNames[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("%q is not a kind: text, integer, number, money, date or datetime", name)
		}
		out = append(out, k)
	}
	return out, nil
}

// convert writes the CSV file in to the workbook out, each column of its
// kind, and returns the number of rows after the header.
func convert(in, out string, kinds []kind) (int, error) {
	f, err := os.Open(in)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 256<<10))
	r.FieldsPerRecord = len(kinds)
	r.ReuseRecord = true
	book := excelize.NewFile()
	defer book.Close()
	styles, err := newStyles(book)
	if err != nil {
		return 0, err
	}
	sw, err := book.NewStreamWriter("Sheet1")
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(kinds))
	n := 0
	for ; ; n++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w (-kinds gives %d columns)", in, err, len(kinds))
		}
		for c, v := range rec {
			if n == 0 {
				vals[c] = excelize.Cell{StyleID: styles[header], Value: strings.TrimPrefix(v, "\ufeff")}
			} else {
				vals[c] = cell(v, kinds[c], styles)
			}
		}
		if err := sw.SetRow("A"+strconv.Itoa(n+1), vals); err != nil {
			return 0, err
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("%s is empty: want a header row", in)
	}
	if err := sw.Flush(); err != nil {
		return 0, err
	}
	return n - 1, book.SaveAs(out)
}

// newStyles makes the style of each kind that has one, and the header's.
func newStyles(f *excelize.File) ([header + 1]int, error) {
	var ids [header + 1]int
	d, dt := "yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss"
	styles := map[kind]*excelize.Style{
		integer: {NumFmt: 1}, money: {NumFmt: 4}, date: {CustomNumFmt: &d}, dateTime: {CustomNumFmt: &dt},
		header: {Font: &excelize.Font{Bold: true}},
	}
	for k, s := range styles {
		id, err := f.NewStyle(s)
		if err != nil {
			return ids, err
		}
		ids[k] = id
	}
	return ids, nil
}

// cell is the value of v in a column of kind k.
func cell(v string, k kind, styles [header + 1]int) any {
	switch {
	case v == "":
		return nil
	case k == number:
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return n
		}
	case k == integer || k == money:
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			return excelize.Cell{StyleID: styles[k], Value: n}
		}
	case k == date || k == dateTime:
		for _, layout := range []string{time.RFC3339, time.DateTime, time.DateOnly} {
			if t, err := time.Parse(layout, v); err == nil {
				if t = t.UTC(); k == date {
					t = t.Truncate(24 * time.Hour)
				}
				return excelize.Cell{StyleID: styles[k], Value: t}
			}
		}
	}
	return v
}
