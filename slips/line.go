package slips

import "lading/mapping"

// Action is what became of one row of the file.
type Action string

// Actions, as the results file names them.
const (
	// Created: the row's slip, or its shipment, was created.
	Created Action = "created"
	// Updated: the row's slip or shipment existed and was changed.
	Updated Action = "updated"
	// Unchanged: what the row gives was sent before; nothing was sent.
	Unchanged Action = "unchanged"
	// ToCreate and ToUpdate: what a dry run would do.
	ToCreate Action = "to create"
	ToUpdate Action = "to update"
	// Invalid: the row (or another row of its slip) is wrong.
	Invalid Action = "invalid"
	// Refused: the account does not let the row's slip be packed as it is
	// (an order it does not have, a line of another order, more units
	// than the order has left to pack, a parcel it already holds);
	// nothing of the slip was sent.
	Refused Action = "refused"
	// Failed: the service refused the slip or its shipment, or gave no
	// answer.
	Failed Action = "failed"
	// Skipped: a skip rule matched, or the row was not sent (a strict
	// push with invalid rows, an interruption).
	Skipped Action = "skipped"
)

// failed reports whether rows with the action count as failed (exit 3).
func (a Action) failed() bool { return a == Invalid || a == Refused || a == Failed }

// Counts counts rows by action.
type Counts map[Action]int

// Line is one row of the file and what became of it.
type Line struct {
	Row int // 1-based line (CSV) or row (XLSX)
	// Values are the row's values as the mapping read them.
	Values mapping.SlipRow
	// SlipID and PackageID are the ids of the row's slip and shipment,
	// once known.
	SlipID, PackageID string
	Action            Action
	Msg               string
}

// pending reports whether the row is still to be settled.
func (l *Line) pending() bool { return l.Action == "" }

func (l *Line) set(a Action, msg string) { l.Action, l.Msg = a, msg }
