package engine

import (
	"errors"
	"fmt"
	"net/http"

	"lading/plural"

	"lading/api"
)

// Words are how a job speaks of its work in the messages the engine writes
// on its rows: "the push was interrupted; push again to send it".
type Words struct {
	// Job names one run: "push", "import".
	Job string
	// Record names one record of a batch: "level", "shipment", "slip".
	Record string
	// Again says how the user runs the job again: "push again".
	Again string
	// Writes says what the account must let a token write, for a 403:
	// "stock levels", "packing slips".
	Writes string
}

// Records is n records, in the singular or plural as n asks.
func (w Words) Records(n int) string {
	return plural.Count(n, w.Record)
}

// Refused is what the rows of a write the service refused as a whole say:
// what happened and what to do, for every kind of refusal.
func (w Words) Refused(err error) string {
	var ae *api.APIError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not sent: lading could not send this %s (%s); this is a fault in lading, please report it", w.Record, err)
	}
	st := ae.Status()
	switch code := ae.StatusCode; {
	case code == http.StatusBadRequest, code == http.StatusUnprocessableEntity:
		return fmt.Sprintf("not sent: the service found the request invalid (%s); correct what it names, then %s", st, w.Again)
	case code == http.StatusUnauthorized:
		return fmt.Sprintf("not sent: the service did not accept the access token (%s); log in again or give a valid token, then %s", st, w.Again)
	case code == http.StatusForbidden:
		return fmt.Sprintf("not sent: the service refused this token access (%s); use a token of an account it may write %s in, then %s", st, w.Writes, w.Again)
	case code == http.StatusNotFound, code == http.StatusMethodNotAllowed, code == http.StatusGone:
		return fmt.Sprintf("not sent: the service has no such address (%s); check that the service's address (base URL) is right, then %s", st, w.Again)
	case code == http.StatusConflict:
		return fmt.Sprintf("not sent: the service found this write in conflict with what the account holds (%s); %s, which reads the account first", st, w.Again)
	case code == http.StatusRequestEntityTooLarge:
		return fmt.Sprintf("not sent: the service found the request too large (%s); %s with fewer %ss per request", st, w.Again, w.Record)
	case code == http.StatusUnsupportedMediaType, code == http.StatusNotAcceptable:
		return fmt.Sprintf("not sent: the service could not read the request (%s); this is a fault in lading, please report it", st)
	case code >= 300 && code < 400:
		return fmt.Sprintf("not sent: the service sent lading elsewhere (%s); give that address as the service's address (base URL), then %s", st, w.Again)
	case code == http.StatusTooManyRequests, code >= 500:
		return fmt.Sprintf("not sent: the service was busy or failing (%s); %s later", st, w.Again)
	}
	return fmt.Sprintf("not sent: the service refused the write (%s); %s once what it names is fixed", st, w.Again)
}

// RecordRefused is what a row whose record the service refused says.
func (w Words) RecordRefused(f api.RecordError) string {
	msg := f.Message
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	return fmt.Sprintf("the service refused this %s (%s); correct the row, or the account, and %s", w.Record, msg, w.Again)
}

// Interrupted is what a row says that was not sent because the run was
// interrupted.
func (w Words) Interrupted() string {
	return fmt.Sprintf("not sent: the %s was interrupted; %s to send it", w.Job, w.Again)
}

// Stopped is what a row says that was not sent because the run stopped
// first (interrupted, or refused access).
func (w Words) Stopped() string {
	return fmt.Sprintf("not sent: the %s stopped before this row's turn; %s to continue", w.Job, w.Again)
}

// NoAnswer is what a row says whose record got no answer before the run
// was interrupted: the next run checks it in the account first.
func (w Words) NoAnswer() string {
	return fmt.Sprintf("the service gave no answer before the %s was interrupted; the next %s checks the account for this %s before sending it again", w.Job, w.Job, w.Record)
}

// Strict is what the rows of a strict run that sent nothing say.
func (w Words) Strict(bad int) string {
	return fmt.Sprintf("not sent: %s of the file cannot be sent as %s and this %s is strict (all or nothing); fix %s and %s",
		plural.Count(bad, "row"), plural.Word(bad, "it is", "they are"), w.Job, plural.Word(bad, "it", "them"), w.Again)
}
