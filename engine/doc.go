// Package engine is the machinery every job of lading that writes to the
// account runs on: the status of each input row and their counts, sending
// a job's records in batches (each batch recorded in the state before it
// is sent and its answer after, batches without an answer checked against
// the account before anything of them goes again), the lifecycle of a run
// (lock, run record, interruption, resumption), and the words for a
// refused request. A job (stock, shipments, slips, importer) keeps only
// what is its own: how a row is checked and planned against the account,
// and what a batch writes.
//
// The same outcome gets the same status, run status and words in every
// job.
package engine
