// Package importer moves catalogs read from spreadsheets into the inventory
// service: it reads a file through a mapping (the file itself is read by
// package source), compares the products with the live catalog, plans the
// writes and sends them in batches, recording each in the local state so
// that an interrupted import continues where it stopped.
package importer
