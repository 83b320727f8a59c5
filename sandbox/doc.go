// Package sandbox is a local emulator of the inventory service's
// integrations interface, faithful enough to test lading against.
//
// It serves every path of the interface (see package lading/api/wire) both
// at the root and under wire.APIPrefix, keeps its data in SQLite
// (in memory or in a file that survives restarts), enforces the
// specification's rules and limits, runs the OAuth authorization-code flow,
// throttles per token, injects reproducible faults, and offers an admin API
// under wire.SandboxAdminPrefix to create orders and bundles, packing
// slips of orders with their shipments, seed an account with a month of
// orders, slips and shipments made from its variants (the same seed makes
// the same data), register tokens, read counters and reset the data. Each
// admin endpoint is also a method of Server:
//
//	POST /_sandbox/orders   OrderSpec        CreateOrder
//	POST /_sandbox/bundles  BundleSpec       CreateBundle
//	POST /_sandbox/slips    SlipSpec         CreateSlip -> SlipResult
//	POST /_sandbox/seed     SeedSpec         Seed -> SeedResult
//	POST /_sandbox/tokens   {"token": "..."} RegisterToken -> Account
//	POST /_sandbox/reset                     Reset
//	GET  /_sandbox/counters                  Counters
//
// A body names the account by "token" or "account" (its id). To try the
// reports, import a catalog, then seed a month of orders:
//
//	curl -s -X POST "$B/_sandbox/seed" -d '{"token":"T","orders":50,"seed":7,"month":"2026-01","locations":true}'
//
// Every response is shaped like the recorded responses of the real service:
// meta values as strings, the resource as an array, related records
// sideloaded as objects keyed by id, scalars as strings or null.
package sandbox
