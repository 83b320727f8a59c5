package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/sandbox"
)

// TestFailRateReads: injected 500s on reads are retried until they succeed.
func TestFailRateReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{FailRate: 0.5, Seed: 3}, wire.APIPrefix)
	for i := 0; i < 10; i++ {
		if _, err := collectErr(e.c.ProductTags.List(t.Context(), nil)); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if n := e.srv.Counters().Faults["fail"]; n == 0 {
		t.Fatal("the sandbox injected no failure")
	} else if r := e.c.Stats().Retries; r != n {
		t.Errorf("client retried %d times for %d injected failures", r, n)
	}
}

// TestFailRateWrites: a write answered 500 is Unknown to the client (a 5xx
// after sending may have applied), and the sandbox, which fails before
// applying, indeed applied nothing.
func TestFailRateWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{FailRate: 0.5, Seed: 3}, "")
	var ok, unknown []string
	for i := 0; i < 12; i++ {
		name := fmt.Sprint("tag", i)
		_, err := e.c.ProductTags.Create(t.Context(), name)
		switch out := api.Classify(err); out {
		case api.Applied:
			ok = append(ok, name)
		case api.Unknown:
			var ae *api.APIError
			if !errors.Is(err, api.ErrOutcomeUnknown) || !errors.As(err, &ae) || ae.StatusCode != http.StatusInternalServerError {
				t.Errorf("write %d: %v, want ErrOutcomeUnknown wrapping a 500", i, err)
			}
			unknown = append(unknown, name)
		default:
			t.Fatalf("write %d: %v classified %v", i, err, out)
		}
	}
	if len(unknown) == 0 || len(ok) == 0 {
		t.Fatalf("%d applied, %d unknown: the seed should give both", len(ok), len(unknown))
	}
	if n := e.srv.Counters().Faults["fail"]; n != int64(len(unknown)) {
		t.Errorf("sandbox failed %d calls, client saw %d unknown", n, len(unknown))
	}
	got := e.tagNames()
	slices.Sort(got)
	slices.Sort(ok)
	if !slices.Equal(got, ok) {
		t.Errorf("tags stored %v, want only the applied %v", got, ok)
	}
}

// TestDropRateWrites: a write applied and then answered by closing the
// connection is Unknown to the client, and the record IS stored.
func TestDropRateWrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{DropRate: 0.5, Seed: 5}, wire.APIPrefix)
	var all, unknown []string
	for i := 0; i < 12; i++ {
		name := fmt.Sprint("tag", i)
		all = append(all, name)
		_, err := e.c.ProductTags.Create(t.Context(), name)
		switch out := api.Classify(err); out {
		case api.Applied:
		case api.Unknown:
			if !errors.Is(err, api.ErrOutcomeUnknown) {
				t.Errorf("write %d: %v, want ErrOutcomeUnknown", i, err)
			}
			unknown = append(unknown, name)
		default:
			t.Fatalf("write %d: %v classified %v", i, err, out)
		}
	}
	if len(unknown) == 0 || len(unknown) == len(all) {
		t.Fatalf("%d of %d writes unknown: the seed should drop some", len(unknown), len(all))
	}
	if n := e.srv.Counters().Faults["drop"]; n != int64(len(unknown)) {
		t.Errorf("sandbox dropped %d answers, client saw %d unknown", n, len(unknown))
	}
	if s := e.c.Stats(); s.Unknown != int64(len(unknown)) {
		t.Errorf("client stats count %d unknown, want %d", s.Unknown, len(unknown))
	}
	got := e.tagNames()
	slices.Sort(got)
	slices.Sort(all)
	if !slices.Equal(got, all) {
		t.Errorf("tags stored %v, want every one, dropped answers included: %v", got, all)
	}
}

// TestLatency: latency beyond the client's HTTP timeout makes a read fail
// as not applied (after its retries) and a write unknown.
func TestLatency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{Latency: 400 * time.Millisecond}, "",
		api.WithHTTPClient(&http.Client{Timeout: 100 * time.Millisecond}), api.WithRetries(1))
	_, err := collectErr(e.c.ProductTags.List(t.Context(), nil))
	if err == nil || api.Classify(err) != api.Retryable {
		t.Errorf("slow read: %v (%v), want retryable", err, api.Classify(err))
	}
	_, err = e.c.ProductTags.Create(t.Context(), "slow")
	if !errors.Is(err, api.ErrOutcomeUnknown) || api.Classify(err) != api.Unknown {
		t.Errorf("slow write: %v (%v), want unknown", err, api.Classify(err))
	}
	patient := e.client(testToken)
	start := time.Now()
	if _, err := collectErr(patient.ProductTags.List(t.Context(), nil)); err != nil {
		t.Fatalf("read with a patient client: %v", err)
	}
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("read took %v, want at least the 400ms latency", d)
	}
	// Every earlier call began its delay before this read's, so it is
	// counted by now.
	if n := e.srv.Counters().Faults["latency"]; n != 4 {
		t.Errorf("sandbox delayed %d calls, want 4 (read, its retry, write, patient read)", n)
	}
}
