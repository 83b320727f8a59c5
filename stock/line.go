package stock

import (
	"lading/api"
)

// Action is what became of one row of the stock file.
type Action string

// Actions, as the results file names them.
const (
	// Sent: the level was sent and the service confirmed it.
	Sent Action = "sent"
	// ToSend: a dry run would send the level.
	ToSend Action = "to send"
	// Unchanged: the level is the one last pushed (or, when verifying,
	// the live one); nothing was sent.
	Unchanged Action = "unchanged"
	// Unknown: no variant of the account has the row's SKU.
	Unknown Action = "unknown"
	// Invalid: the row is wrong (a quantity, a SKU twice, a warehouse).
	Invalid Action = "invalid"
	// Failed: the service refused the level, or gave no answer.
	Failed Action = "failed"
	// Skipped: a skip rule matched, or the row was not sent (a strict push
	// with invalid rows, an interruption).
	Skipped Action = "skipped"
)

// failed reports whether rows with the action count as failed (exit 3).
func (a Action) failed() bool { return a == Unknown || a == Invalid || a == Failed }

// Counts counts rows by action.
type Counts map[Action]int

// Line is one row of the stock file and what became of it.
type Line struct {
	Row       int    // 1-based line (CSV) or row (XLSX)
	SKU       string // as given, trimmed
	Warehouse string // as given (a warehouse column), trimmed; "" for the default
	Units     int64  // the level to set, when Valid
	Valid     bool   // the row's SKU and quantity could be read

	// Filled by the later phases.
	WarehouseID api.ID
	VariantID   api.ID
	Old         float64 // the level remembered (or live, when verifying)
	HasOld      bool
	Action      Action
	Msg         string
	// first is, on a row repeating an earlier row's SKU and quantity, the
	// index of that row: it shares its outcome. -1 otherwise.
	first int
}

// pending reports whether the row is still to be placed or sent.
func (l *Line) pending() bool { return l.Action == "" }

func (l *Line) set(a Action, msg string) { l.Action, l.Msg = a, msg }
