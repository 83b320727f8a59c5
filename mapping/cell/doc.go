// Package cell reads the numbers, dates and times written in the cells of
// a spreadsheet, as a mapping's source settings say they are written:
// decimal separators and grouped thousands (ParseNumber, exact, without
// floating point), date formats like DD/MM/YYYY (Layout, ParseDate),
// times of day with an offset (ParseDateTime, ParseTimestamp), and the
// scientific notation a spreadsheet writes long numbers in (Scientific).
// The mapping language's reference is package mapping's documentation.
package cell
