package state

import "strings"

// The keys of the state. A scope names one key space of PutIDs, IDs and
// AllIDs, so that two accounts, or two kinds of record, never share keys;
// a job key names one job on one account, for Hold and StartRun. Every
// key lading uses is made here, and nowhere else: account is the account
// scope (base URL and token digest) the caller keeps things apart by.

// KeyProducts is the scope of an account's product keys (as a mapping
// groups rows) and the product ids imports gave them.
func KeyProducts(account string) string { return account + "|product" }

// KeyImported is the scope of what an incremental import found an
// account to hold of each product of its file equal to the file's, by
// product key (the importer's marks).
func KeyImported(account string) string { return account + "|imported" }

// KeyImportedCheck is the scope of the count an incremental import left
// of an account's older variants, for the next to find deletions by.
func KeyImportedCheck(account string) string { return account + "|imported-check" }

// KeyFiles is the scope of the product files imports uploaded to an
// account (or found there holding the same content), by product id and
// place (Files).
func KeyFiles(account string) string { return account + "|files" }

// KeySKUs is the scope of an account's SKUs and their variant ids, filled
// by imports and read by stock pushes.
func KeySKUs(account string) string { return account + "|variant" }

// KeyWarehouses is the scope of an account's warehouses (id → label) that
// stock pushes learned.
func KeyWarehouses(account string) string { return account + "|warehouse" }

// KeyLevels is the scope of the stock levels pushed and confirmed in a
// warehouse of an account, by variant id.
func KeyLevels(account, warehouse string) string { return account + "|stock|" + warehouse }

// KeyShipped is the scope of the shipments posted to an account.
func KeyShipped(account string) string { return account + "|shipped" }

// KeyOrderFulfillments is the scope of the fulfillment of each sales
// order of an account, as shipments pushes found them.
func KeyOrderFulfillments(account string) string { return account + "|fulfillment-of-order" }

// KeyFulfillmentStatuses is the scope of the fulfillment statuses
// shipments pushes set.
func KeyFulfillmentStatuses(account string) string { return account + "|fulfillment-status" }

// KeySlips and KeyPackages are the scopes of the packing slips and
// shipments (packages) slips pushes made, by the file's keys;
// KeySlipsSent and KeyPackagesSent hold what was last sent of each.
func KeySlips(account string) string        { return account + "|slips" }
func KeySlipsSent(account string) string    { return account + "|slips|sent" }
func KeyPackages(account string) string     { return account + "|packages" }
func KeyPackagesSent(account string) string { return account + "|packages|sent" }

// KeyCarriers is the scope of the carriers (name → id) of an account.
func KeyCarriers(account string) string { return account + "|carriers" }

// KeyPulled is the scope of the fulfillments an account's pulls wrote.
func KeyPulled(account string) string { return account + "|pulled" }

// KeyJobTimes is the scope of when each job of a jobs file last ran for
// an account (by job name), so that a runner started again knows which
// jobs are due. Unlike the scopes above it is keyed by the account's
// name (its state file is its own): a new token keeps the times.
func KeyJobTimes(account string) string { return account + "|job-times" }

// KeyDropped is the scope of the files a folder job of an account has
// taken and not yet moved aside (by folder, name and content digest), so
// that a runner killed midway finishes them on restart. Keyed by the
// account's name, as KeyJobTimes.
func KeyDropped(account string) string { return account + "|dropped" }

// KeyJob names a job on an account (and what else sets it apart: a
// warehouse), for its lock and its runs: "stock push", account, warehouse.
func KeyJob(job, account string, more ...string) string {
	return strings.Join(append([]string{job, account}, more...), "\x00")
}
