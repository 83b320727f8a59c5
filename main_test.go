package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"testing"

	"lading/app"
)

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("boom"), 1},
		{app.Usagef("bad flag"), 2},
		{fmt.Errorf("wrapped: %w", app.Usagef("bad flag")), 2},
		{&app.PartialError{Failed: 1, Total: 3, What: "rows"}, 3},
		{&app.InterruptedError{Msg: "stopped"}, 130},
		{fmt.Errorf("import: %w", context.Canceled), 130},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestSetMemoryLimit(t *testing.T) {
	const other = 1 << 40
	for _, tc := range []struct {
		name, env, value string
		want             int64
	}{
		{"nothing set: lading's limit", "", "", memoryLimit},
		{"GOMEMLIMIT set: left alone", "GOMEMLIMIT", "1GiB", other},
		{"GOGC set: left alone", "GOGC", "50", other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := debug.SetMemoryLimit(other)
			defer debug.SetMemoryLimit(prev)
			for _, k := range []string{"GOMEMLIMIT", "GOGC"} {
				t.Setenv(k, "")
			}
			if tc.env != "" {
				t.Setenv(tc.env, tc.value)
			}
			setMemoryLimit()
			if got := debug.SetMemoryLimit(-1); got != tc.want {
				t.Errorf("limit %d, want %d", got, tc.want)
			}
		})
	}
}
