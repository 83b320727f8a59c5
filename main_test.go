package main

import (
	"context"
	"errors"
	"fmt"
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
