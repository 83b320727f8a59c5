// Package api is the typed client of the inventory service's integrations
// interface: JSON over HTTP, every call a POST with an `action` envelope.
//
// One [Client] carries a service value per resource (Products, Variants,
// ProductTags, ProductFiles, PackingSlips, Packages, Fulfillments, Stock).
// Listings are iterators that page to the last page; filters and sorts are
// validated against the wire contract before anything is sent. Every request
// waits on one shared, adaptive [Limiter]; throttled calls are retried after
// Retry-After or a jittered backoff while the rate is lowered.
//
// Failures are classified with [Classify] so callers can act on them:
// NotApplied (safe to retry or report), Unknown (a write that may have been
// applied: reconcile before sending it again) and Rejected (per-record
// validation errors, by index).
//
// Every fact about the wire (paths, keys, limits) comes from package
// lading/api/wire.
package api
