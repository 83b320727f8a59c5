// Package sourcetest writes synthetic catalogs in the generic layout (that
// of samples/catalog.csv), deterministic and of any size, and holds the
// benchmark harness shared by the packages that read such files (source,
// importer): generated files cached per process, the row count knob and
// the bare reads the sources are measured against. Workbook writes small
// workbooks part by part, for tests of what a spreadsheet library does not
// write (hidden sheets, error values, formulas without values).
package sourcetest
