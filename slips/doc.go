// Package slips pushes packing slips and their shipments (the service's
// Packages) from a file: what a 3PL's warehouse system packed and shipped,
// written back to the account.
//
// A push goes in phases that hand values on: read the file through a
// mapping's slips section, rows sharing a key making one slip (a line item
// given on several rows of it adds up) (Read, group); find what earlier
// pushes made for those keys in the state, and the carriers the rows name
// (resolve); compare each slip and shipment with what was last sent and
// confirmed for its key (plan); read the orders of the slips to send, 250
// a read, to find in the account the slips the state does not know (a
// slip's local_id is its key) and their shipments (by tracking number),
// and to refuse what the account would not take or would count twice: an
// order it does not have, a line of another order, more units than the
// order has left to pack, a tracking number the order already holds
// (inAccount); send the slips to create or change, then their shipments,
// in writes of up to 100 records through the shared worker pool, each
// batch recorded in the state before it is sent and the ids it made
// remembered with its outcome, in one transaction (send); and write one
// results line per input row.
//
// The account is the truth: the state only saves requests. With it lost,
// or another one, a push reads the orders and creates nothing twice.
//
// A slip whose create got no answer is looked for in the account (the
// slips created since the batch was recorded, matched by their key, order,
// date, notes and lines) before anything of it is sent again, in this
// push or, when the push was killed, in the next one; a shipment likewise
// among its slip's shipments. Edits are sent again, which changes nothing
// twice.
package slips
