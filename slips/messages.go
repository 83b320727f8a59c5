package slips

import (
	"errors"
	"fmt"
	"net/http"

	"lading/api"
)

// refusedMessage is what the rows of a batch the service refused whole
// say: what happened and what to do.
func refusedMessage(err error, what string) string {
	var ae *api.APIError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not sent: lading could not send this %s (%s); this is a fault in lading, please report it", what, err)
	}
	st := ae.Status()
	switch code := ae.StatusCode; {
	case code == http.StatusUnauthorized:
		return fmt.Sprintf("not sent: the service did not accept the access token (%s); log in again or give a valid token, then push again", st)
	case code == http.StatusForbidden:
		return fmt.Sprintf("not sent: the service refused this token access (%s); use a token of an account it may write packing slips in, then push again", st)
	case code == http.StatusNotFound, code == http.StatusMethodNotAllowed:
		return fmt.Sprintf("not sent: the service has no such address (%s); check that the service's address (base URL) is right, then push again", st)
	case code == http.StatusRequestEntityTooLarge:
		return fmt.Sprintf("not sent: the service found the request too large (%s); push again with fewer records per request", st)
	}
	return fmt.Sprintf("not sent: the service refused the write (%s); push again once what it names is fixed", st)
}

// recordRefusedMessage is what a row whose slip or shipment the service
// refused says.
func recordRefusedMessage(what string, f api.RecordError) string {
	msg := f.Message
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	return fmt.Sprintf("the service refused this %s (%s); correct the rows, or the account, and push again", what, msg)
}
