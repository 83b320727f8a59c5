// Package shipments posts the shipments of a warehouse system's
// confirmation file against open fulfillments, never shipping a line twice.
//
// A push goes in phases that hand values on: read (one Line per row of the
// file, through a mapping's shipments section), resolve (each row's
// fulfillment and line item, from what earlier pushes remembered or from
// one detail read of the fulfillments), plan (rows already shipped, rows
// asking for more than is left, and the shipments to post: rows of one
// fulfillment and tracking number are one shipment), send (in waves, so
// that no two shipments of one line are ever in flight together; each batch
// is recorded in the state before it is sent and confirmed after; a batch
// whose answer was lost is checked against the fulfillments' shipped
// quantities before anything of it is sent again), then check (the
// fulfillments every line of which is now shipped have left the open list)
// and report (a results file, one line per row).
package shipments
