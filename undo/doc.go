// Package undo takes back what a run of an import or a stock push wrote,
// from what the run recorded before it sent each batch: the records it
// created (products, variants, product files) are deleted (products
// archived, if asked), the fields and prices it changed are set back to
// the values they had before, the tags it added are taken off and those
// it took off put back, and the stock levels it set are set back to the
// levels before. What it archived or deleted stays so: the service has no
// way to unarchive a product or bring back a deleted record, and each
// such record's line says so.
//
// The account is read first, in the fewest requests, and only what still
// holds the run's values is taken back: a value someone changed since (it
// is neither the run's nor the one before it) is a conflict, kept as it is
// and reported with its three values, unless the undo is forced. An undo
// is itself a run, with its own history: resumable after a crash or an
// interruption, and undoing an undo does the run again.
//
// Shipments and packing slips are not undone: a parcel handed to a
// carrier is not taken back by a file.
package undo
