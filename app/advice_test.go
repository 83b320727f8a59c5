package app

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"lading/api"
)

func TestAdvice(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // a part of the advice; "" for none
	}{
		{"none", nil, ""},
		{"unknown error", errors.New("disk full"), ""},
		{"token refused", fmt.Errorf("stopped: %w", &api.APIError{StatusCode: 401}), "lading auth login"},
		{"forbidden", &api.APIError{StatusCode: 403}, "--token"},
		{"throttled", fmt.Errorf("reading: %w", &api.RateLimitError{Attempts: 6}), "lower --rate"},
		{"no such path", &api.APIError{StatusCode: 404}, "--base-url"},
		{"server error", &api.APIError{StatusCode: 503}, "again later"},
		{"unreachable", fmt.Errorf("api: POST /v2/Variants: %w: connection refused", api.ErrNotApplied), "could not reach"},
		{"bad request", &api.APIError{StatusCode: 400}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Advice(tt.err)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Advice(%v) = %q, want one containing %q", tt.err, got, tt.want)
			}
		})
	}
}
