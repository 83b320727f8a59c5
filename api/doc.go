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
// One function decides, after each attempt, whether a call is tried again:
// only throttling, failures before the request was sent and failed reads
// are. A write that was sent and got no usable answer is never sent again
// by this package; a 3xx or 4xx is never sent again at all.
//
// A write's records rejected one by one are in its [WriteResult]; the
// error of a call is for whole-call failures, and [Classify] tells what to
// do with it: Rejected (report it; never send it again unchanged), Unknown
// (the write may have been applied: look its records up first) or
// Retryable (nothing was applied; send it again later). A caller that
// keeps the records it writes (to look them up should the answer be lost)
// encodes them once with [Encode], keeps [Encoded.JSON], and sends the same
// bytes with the service's WriteEncoded.
//
// Every fact about the wire (paths, keys, limits) comes from package
// lading/api/wire.
package api
