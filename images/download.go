package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"
)

// userAgent is how lading names itself to image servers.
const userAgent = "lading (catalog import; product images)"

// maxAttempts is how often a download that failed for a reason that may
// pass (a server error, a broken connection) is tried; backoff is the
// wait before each try after the first.
const maxAttempts = 3

var backoff = [maxAttempts - 1]time.Duration{500 * time.Millisecond, 2 * time.Second}

// download fetches a URL, asking whether it changed since known when
// that says how, and tries again what may pass.
func (f *Fetcher) download(ctx context.Context, s Source, known *Known) (*Image, error) {
	for attempt := 0; ; attempt++ {
		img, err := f.get(ctx, s, known)
		var ie *Error
		if err == nil || attempt == maxAttempts-1 || !errors.As(err, &ie) || !ie.Temporary || ie.timeout {
			return img, err
		}
		select {
		case <-time.After(backoff[attempt]):
		case <-ctx.Done():
			return nil, err
		}
	}
}

// get makes one request for s.
func (f *Fetcher) get(ctx context.Context, s Source, known *Known) (*Image, error) {
	ctx, cancel := context.WithTimeout(ctx, f.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL.String(), nil)
	if err != nil {
		return nil, &Error{Source: s.Key, Reason: "not a valid address", Advice: "correct the address in the file"}
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "image/*, application/pdf;q=0.9, */*;q=0.1")
	if known != nil {
		if known.ETag != "" {
			req.Header.Set("If-None-Match", known.ETag)
		}
		if known.Modified != "" {
			req.Header.Set("If-Modified-Since", known.Modified)
		}
	}
	res, err := f.client.Do(req)
	if err != nil {
		return nil, f.requestError(ctx, s, err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotModified && known != nil && (known.ETag != "" || known.Modified != "") {
		return &Image{Source: s, Name: fileName(s, ""), Size: known.Size, Hash: known.Hash,
			ETag: known.ETag, Modified: known.Modified, NotModified: true}, nil
	}
	if res.StatusCode != http.StatusOK {
		return nil, statusError(s, res)
	}
	if res.ContentLength > f.o.MaxSize {
		return nil, f.tooLarge(s, res.ContentLength)
	}
	tmp, err := os.CreateTemp(f.dir, "img-*")
	if err != nil {
		return nil, err
	}
	img, err := f.read(s, res.Body, tmp)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		var ie *Error
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, f.requestError(ctx, s, err)
	}
	img.file = tmp.Name()
	img.ETag, img.Modified = res.Header.Get("ETag"), res.Header.Get("Last-Modified")
	img.Name = fileName(s, img.Type)
	return img, nil
}

// errRedirects and errScheme stop a chain of redirects.
var (
	errRedirects = errors.New("too many redirects")
	errScheme    = errors.New("redirected out of http and https")
)

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: %s", errScheme, req.URL.Redacted())
	}
	if len(via) > f.o.MaxRedirects {
		return errRedirects
	}
	return nil
}

// requestError says why a request got no usable answer.
func (f *Fetcher) requestError(ctx context.Context, s Source, err error) error {
	switch {
	case errors.Is(err, errRedirects):
		return &Error{Source: s.Key, Reason: fmt.Sprintf("it was redirected more than %d times (a redirect loop?)", f.o.MaxRedirects),
			Advice: "give the image's final address"}
	case errors.Is(err, errScheme):
		return &Error{Source: s.Key, Reason: "it was redirected to an address that is not http or https",
			Advice: "give the image's final address"}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Source: s.Key, Reason: fmt.Sprintf("no complete answer within %s", f.o.Timeout),
			Advice: "try again later", Temporary: true, timeout: true}
	case errors.Is(err, context.Canceled):
		return &Error{Source: s.Key, Reason: "the import stopped before it was fetched", Advice: "run the import again", Temporary: true}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return &Error{Source: s.Key, Reason: fmt.Sprintf("no server is named %s", dns.Name), Advice: "correct the address in the file"}
	}
	return &Error{Source: s.Key, Reason: fmt.Sprintf("the download failed (%v)", unwrapURL(err)), Advice: "try again later", Temporary: true}
}

// unwrapURL drops the *url.Error's method and URL, which the message
// names already.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// statusError says what an answer other than 200 means.
func statusError(s Source, res *http.Response) error {
	io.Copy(io.Discard, io.LimitReader(res.Body, 4<<10))
	st := res.Status
	switch c := res.StatusCode; {
	case c == http.StatusNotFound, c == http.StatusGone:
		return &Error{Source: s.Key, Reason: "not found (HTTP " + st + ")", Advice: "correct the address in the file"}
	case c == http.StatusUnauthorized, c == http.StatusForbidden:
		return &Error{Source: s.Key, Reason: "the server refused it (HTTP " + st + ")", Advice: "make the image public, or give its public address"}
	case c == http.StatusTooManyRequests, c >= 500:
		return &Error{Source: s.Key, Reason: "the server failed or was busy (HTTP " + st + ")", Advice: "try again later", Temporary: true}
	}
	return &Error{Source: s.Key, Reason: "the server answered HTTP " + st, Advice: "correct the address in the file"}
}
