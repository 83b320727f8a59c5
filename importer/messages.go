package importer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
	"lading/mapping"
)

// What a row says when its write did not go through. Each message tells
// what happened and what to do about it, in the words of the person who
// runs the import; the service's own status and text follow in brackets.

// setback is why a batch was not written in a round. Its products are
// looked up and planned again in the next round; when the rounds run out,
// or the import stops first, their rows say why.
type setback struct {
	kind  setbackKind
	cause string // the status or error, for the brackets
}

type setbackKind int

const (
	// noAnswer: the write was sent and no answer came (a 5xx, a dropped
	// connection, a timeout). It may have been written.
	noAnswer setbackKind = iota
	// throttled: the service kept asking lading to slow down.
	throttled
	// unreachable: the write could not be sent.
	unreachable
	// notSent: the import stopped (interrupted, or refused access) before
	// the write was sent.
	notSent
	// withOthers: the service refused the whole write for other records'
	// errors; this record was not written and goes again without them.
	withOthers
)

// setbackOf says why a write that may be sent again was not written.
func setbackOf(err error) setback {
	var rl *api.RateLimitError
	var ae *api.APIError
	switch {
	case errors.As(err, &rl):
		return setback{throttled, "the service answered Too Many Requests"}
	case errors.Is(err, api.ErrOutcomeUnknown) && errors.As(err, &ae):
		return setback{noAnswer, ae.Status()}
	case errors.Is(err, api.ErrOutcomeUnknown) && errors.Is(err, context.DeadlineExceeded):
		return setback{noAnswer, "no answer in time"}
	case errors.Is(err, api.ErrOutcomeUnknown):
		return setback{noAnswer, "the connection was lost"}
	case errors.Is(err, context.Canceled):
		return setback{notSent, "interrupted"}
	}
	return setback{unreachable, lastPart(err.Error())}
}

// message is what the rows of a batch say after tries rounds.
func (s setback) message(tries int) string {
	switch s.kind {
	case noAnswer:
		return fmt.Sprintf("no answer from the service after %d tries (%s); it may have been written: run the same command again and lading will check before resending", tries, s.cause)
	case throttled:
		return fmt.Sprintf("the service kept asking to slow down after %d tries (%s); nothing of it was written: run the same command again later, or at a lower request rate", tries, s.cause)
	case unreachable:
		return fmt.Sprintf("could not reach the service after %d tries (%s); nothing of it was written: check the network and the service's address, then run the same command again", tries, s.cause)
	case withOthers:
		return fmt.Sprintf("not written: the service refused the whole request for errors in other rows, %d times (%s); fix those, then run the same command again", tries, s.cause)
	}
	return notSentMessage
}

const notSentMessage = "not sent: the import stopped before this row's turn; run the same command again to continue"

// refusedMessage is what the rows of a write the service refused as a
// whole say: a 4xx other than throttling, or a redirect. Sending the same
// write again would get the same answer, so it is not sent again.
func refusedMessage(err error) string {
	var ae *api.APIError
	if !errors.As(err, &ae) {
		// Refused before sending: the write breaks a rule of the interface.
		return fmt.Sprintf("not written: lading could not send this write (%s); this is a fault in lading, please report it", err)
	}
	st := ae.Status()
	switch code := ae.StatusCode; {
	case code == http.StatusUnauthorized:
		return fmt.Sprintf("not written: the service did not accept the access token (%s); log in again or give a valid token, then run the same command again", st)
	case code == http.StatusForbidden:
		return fmt.Sprintf("not written: the service refused this token access (%s); use a token of an account that may change its catalog, then run the same command again", st)
	case code == http.StatusNotFound, code == http.StatusMethodNotAllowed:
		return fmt.Sprintf("not written: the service has no such address (%s); check that the service's address (base URL) is right, then run the same command again", st)
	case code == http.StatusRequestEntityTooLarge:
		return fmt.Sprintf("not written: the service found the request too large (%s); run the same command again with a smaller batch size", st)
	case code >= 300 && code < 400:
		return fmt.Sprintf("not written: the service sent lading elsewhere (%s); give that address as the service's address (base URL), then run the same command again", st)
	}
	return fmt.Sprintf("not written: the service refused the write (%s); fix what it names in the file, then run the same command again", st)
}

// recordRefusedMessage is what the rows of a record the service refused
// say: the product's rows for a product record, else the variant's row.
func recordRefusedMessage(product bool, f api.RecordError) string {
	what, msg := "variant", f.Message
	if product {
		what = "product"
	}
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	return fmt.Sprintf("not written: the service refused this %s (%s); fix it in the file, then run the same command again", what, msg)
}

// refusedValue finds where in the file the value a record error names
// came from: the variant (of a variant record, or by its index in a
// product create's links.Variants) and the column the mapping reads the
// field from ("" when it is no column's: an expression, a constant, a
// field the mapping does not set).
func refusedValue(m *mapping.Mapping, r *record, field string) (vp *VariantPlan, column string) {
	vp = r.vp
	if rest, ok := strings.CutPrefix(field, "links.Variants["); ok && vp == nil {
		i, after, _ := strings.Cut(rest, "]")
		if n, err := strconv.Atoi(i); err == nil && n >= 0 && n < len(r.pp.Variants) {
			vp, field = r.pp.Variants[n], strings.TrimPrefix(after, ".")
		}
	}
	var spec *mapping.ValueSpec
	switch {
	case vp == nil && field == "name":
		spec = m.Product.Name
	case vp == nil && field == "description":
		spec = m.Product.Description
	case vp == nil && field == "notes":
		spec = m.Product.Notes
	case vp != nil && field == "sku":
		spec = m.Variant.SKU
	case vp != nil && field == wire.VariantQuantity:
		spec = m.Variant.Stock
	case vp != nil:
		for _, f := range m.Variant.Fields {
			if f.Name == field {
				spec = f
			}
		}
	}
	if spec == nil {
		return vp, ""
	}
	return vp, spec.Column
}

// valueRefusedMessage is what the row of a value the service refused says,
// naming its column.
func valueRefusedMessage(column, msg string) string {
	return fmt.Sprintf("not written: the service refused this row's value in column %q (%s); fix it in the file, then run the same command again", column, msg)
}

// productValueRefusedMessage is what the rows of a product say when the
// service refused one of the product's values.
func productValueRefusedMessage(column, msg string) string {
	return fmt.Sprintf("not written: the service refused this product's value in column %q (%s); fix it in the file, then run the same command again", column, msg)
}

// rowRefusedMessage is what the other rows of a product say when the
// service refused a value in one of them.
func rowRefusedMessage(row catalog.RowRef, column, msg string) string {
	return fmt.Sprintf("not written: the service refused the value in column %q of %s row %d (%s); fix it there, then run the same command again", column, filepath.Base(row.File), row.Line, msg)
}

// lastPart is the innermost cause of an error's text ("connection
// refused" of "api: POST /v1/Products: not applied: dial tcp: connection
// refused").
func lastPart(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}
