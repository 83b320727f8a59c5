// Package e2e holds lading's end-to-end tests: the typed client (package
// lading/api) against the emulator (package lading/sandbox) over real HTTP,
// the OAuth login (package lading/auth) against the emulator's authorization
// server, the command line (package lading/app) against both, and the pacing
// benchmark of throttled reads.
//
// It has no non-test code. Run it with the rest: go test ./...; the pacing
// figure of 200 throttled reads with
//
//	go test ./e2e -run XXX -bench Throttled -benchtime 1x
package e2e
