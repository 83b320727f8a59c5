// Package sandbox is a local emulator of the inventory service's
// integrations interface, faithful enough to test lading against.
//
// It serves every path of the interface (see package lading/api/wire) both
// at the root and under wire.APIPrefix, keeps its data in SQLite
// (in memory or in a file that survives restarts), enforces the
// specification's rules and limits, runs the OAuth authorization-code flow,
// throttles per token, injects reproducible faults, and offers an admin API
// under wire.SandboxAdminPrefix to create orders and bundles, register
// tokens, read counters and reset the data.
//
// Every response is shaped like the recorded responses of the real service:
// meta values as strings, the resource as an array, related records
// sideloaded as objects keyed by id, scalars as strings or null.
package sandbox
