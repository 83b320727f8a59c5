package app

import (
	"errors"
	"net/http"

	"lading/api"
	"lading/exporter"
	"lading/source"
	"lading/stock"
)

// Advice says what to do about an error a command returned, in terms of
// lading's flags and commands, or "" when the error says enough: the
// hint of a usage error, or advice for the typed errors of the packages
// app wires. main prints it under the error.
func Advice(err error) string {
	var (
		u  *UsageError
		ae *api.APIError
		rl *api.RateLimitError
		ro *ReadOnlyError
		me *exporter.MismatchError
		he *source.HeaderError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &u) && u.Hint != "":
		return u.Hint
	case errors.As(err, &me) && me.For == exporter.PullLines:
		return "It is an order-file layout: lading fulfillments pull --template " + me.Report + " -o orders.csv"
	case errors.As(err, &me):
		return "Use it with the export it is for: lading export " + me.For + " --template " + me.Report + " -o FILE"
	case errors.Is(err, exporter.ErrTooManyAttributes):
		return "Choose the columns with --columns, or a report template with --template."
	case errors.Is(err, source.ErrPartLimit):
		return "If the workbook is genuine, raise the limit with --max-xlsx-part-size (e.g. --max-xlsx-part-size 8GiB)."
	case errors.Is(err, source.ErrCellLimit):
		return "If the workbook is genuine, raise the limit with --max-xlsx-cell-size (e.g. --max-xlsx-cell-size 4MiB)."
	case errors.As(err, &he):
		return "Choose the sheet with --sheet NAME and the row holding the column names with --header-row N (or sheet and header_row under source: in the mapping)."
	case errors.Is(err, api.ErrAccessDenied):
		return "The service refused the access token. Log in again (lading auth login), or give a valid token with --token or LADING_TOKEN; lading auth status shows which one is used."
	case errors.Is(err, stock.ErrWarehouse):
		return "Name the warehouse with --warehouse ID (an AccountAddresses id), or add a warehouse column to the file."
	case errors.As(err, &rl):
		return "The service kept asking lading to slow down. Run the same command again later, or with a lower --rate."
	case errors.As(err, &ae) && (ae.StatusCode == http.StatusNotFound || ae.StatusCode == http.StatusMethodNotAllowed):
		return "The service has no such address. Check --base-url (LADING_BASE_URL): it is the service's address with its path prefix, e.g. https://HOST/api2."
	case errors.As(err, &ae) && ae.StatusCode >= 500 && errors.As(err, &ro):
		return "The service failed to answer. Run the same command again later: an export or pull changes nothing in the account, and its file was not written (one already there is left as it was)."
	case errors.As(err, &ae) && ae.StatusCode >= 500:
		return "The service failed to answer. Run the same command again later; what was written is recorded and is not sent twice."
	case errors.Is(err, api.ErrNotApplied):
		return "lading could not reach the service. Check --base-url (LADING_BASE_URL) and the network; lading sandbox starts a local service to try against."
	}
	return ""
}
