// Package exporter writes listings of the account into spreadsheets: the
// catalog in the layout imports read back, packing slips for accountants,
// open fulfillments for picking, tags. Conditions and sorting are checked
// against what the interface allows before any request; pages are read
// concurrently under the client's limiter and written in order, so that
// memory stays bounded whatever the number of records.
package exporter
