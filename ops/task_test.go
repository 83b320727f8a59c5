package ops

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/state"
)

func TestOutcomeOf(t *testing.T) {
	t.Parallel()
	live := context.Background()
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	ok := Result{Rows: engine.Counts{"sent": 3}}
	someFailed := Result{Rows: engine.Counts{"sent": 2, engine.Failed: 1}}
	for _, c := range []struct {
		name string
		ctx  context.Context
		res  Result
		err  error
		want Outcome
	}{
		{"done", live, ok, nil, OK},
		{"done as lading was stopped", stopped, ok, nil, OK},
		{"rows failed", live, someFailed, nil, Partial},
		{"interrupted by the job", live, Result{}, fmt.Errorf("push: %w", engine.ErrInterrupted), Interrupted},
		{"an error because lading was stopped", stopped, Result{}, context.Canceled, Interrupted},
		{"another process held it", live, Result{}, fmt.Errorf("hold: %w", state.ErrLocked), Locked},
		{"a mistake in the file", live, Result{}, fmt.Errorf("read: %w", engine.ErrInvalid), Partial},
		{"the token refused", live, Result{}, fmt.Errorf("list: %w", api.ErrAccessDenied), Failed},
		{"any other error", live, Result{}, errors.New("disk full"), Failed},
	} {
		if got := outcomeOf(c.ctx, c.res, c.err); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
