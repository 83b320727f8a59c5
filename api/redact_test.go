package api

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestShortTokenRedactedWhereItIsKnown: a token too short to look for in
// any text (it would match ordinary words) is redacted where it is known
// to be, the access_token header and the credential fields of a body and
// of a URL, and the rest of the trace and errors are left readable.
func TestShortTokenRedactedWhereItIsKnown(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"a", "e", "abcdefghi"} {
		t.Run(tok, func(t *testing.T) {
			srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				if strings.Contains(r.URL.Path, "/Products") {
					w.Header().Set("Location", "http://elsewhere/login?access_token="+tok+"&next=home")
					w.WriteHeader(http.StatusFound)
					return
				}
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"message":"the service refused the access token","access_token":"` + tok +
					`","client_secret":"` + tok + `"}`))
			})
			var trace bytes.Buffer
			c, err := NewClient(srv.URL, tok, WithDebug(&trace), WithRetries(0), WithRate(1000, 100), WithBackoff(time.Millisecond, time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Variants.Get(context.Background(), "1")
			if err == nil || !strings.Contains(err.Error(), "the service refused the access token") {
				t.Errorf("the error's message was garbled: %v", err)
			}
			_, err = c.Products.Get(context.Background(), "1")
			if err == nil || !strings.Contains(err.Error(), "login?access_token="+redacted+"&next=home") {
				t.Errorf("the redirect's token is not redacted, or its URL garbled: %v", err)
			}
			got := trace.String()
			for _, want := range []string{
				"access_token: " + redacted, `"access_token":"` + redacted + `"`, `"client_secret":"` + redacted + `"`,
				`"action":"read"`, "the service refused the access token", "<-- 401 Unauthorized",
			} {
				if !strings.Contains(got, want) {
					t.Errorf("trace lacks %q:\n%s", want, got)
				}
			}
			for _, leak := range []string{`"access_token":"` + tok + `"`, "access_token: " + tok + "\n", "access_token=" + tok + "&"} {
				if strings.Contains(got, leak) {
					t.Errorf("trace shows %q:\n%s", leak, got)
				}
			}
		})
	}
}

// TestLongTokenRedactedAnywhere: a token of 16 characters or more is
// redacted wherever it appears, in free text too.
func TestLongTokenRedactedAnywhere(t *testing.T) {
	t.Parallel()
	const tok = "0123456789abcdefXYZ"
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"message":"token ` + tok + ` is unknown"}`))
	})
	var trace bytes.Buffer
	c, err := NewClient(srv.URL, tok, WithDebug(&trace), WithRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Variants.Get(context.Background(), "1")
	if err == nil || !strings.Contains(err.Error(), "token "+redacted+" is unknown") {
		t.Errorf("error: %v", err)
	}
	if strings.Contains(trace.String(), tok) || !strings.Contains(trace.String(), "token "+redacted+" is unknown") {
		t.Errorf("trace:\n%s", trace.String())
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	const long = "0123456789abcdefXYZ"
	for _, tc := range []struct{ token, in, want string }{
		{"a", "a bad access token", "a bad access token"},
		{"a", `{"access_token":"a","name":"a"}`, `{"access_token":"[REDACTED]","name":"a"}`},
		{"a", `{"client_secret" : "s\"x", "refresh_token":"r"}`, `{"client_secret" : "[REDACTED]", "refresh_token":"[REDACTED]"}`},
		{"a", "/cb?code=1&access_token=a&x=2", "/cb?code=1&access_token=[REDACTED]&x=2"},
		{"a", "invalid access_token: the token is unknown", "invalid access_token: the token is unknown"},
		{long, "token " + long + " unknown", "token [REDACTED] unknown"},
		{long, `{"access_token":"other"}`, `{"access_token":"[REDACTED]"}`},
	} {
		c := &Client{token: tc.token}
		if got := c.redact(tc.in); got != tc.want {
			t.Errorf("token %q: redact(%q) = %q, want %q", tc.token, tc.in, got, tc.want)
		}
	}
}
