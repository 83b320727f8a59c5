// Package shipments posts the shipments of a warehouse system's
// confirmation file against open fulfillments, never shipping a line twice.
//
// A push goes in phases that hand values on: read (one Line per row of the
// file, through a mapping's shipments section), resolve (each row's
// fulfillment and line item; rows the state remembers posted are settled
// without a request, and the fulfillments of the rest are read, 250 a
// read, with the shipments posted against them and their orders'
// parcels), plan (rows whose tracking number their fulfillment already
// shipped, whatever the state holds: already shipped, or failed when the
// quantity differs; rows whose tracking number the order holds in another
// record; rows asking for more than is left; and the shipments to post:
// rows of one fulfillment and tracking number are one shipment), send (in
// waves, so that no two shipments of one fulfillment are ever in flight
// together; each batch is recorded in the state before it is sent and
// confirmed after; a batch whose answer was lost is looked for among the
// fulfillments' shipments by tracking number before anything of it is
// sent again), then check (the fulfillments every line of which is now
// shipped have left the open list) and report (a results file, one line
// per row).
//
// The account is the truth: the state only saves requests. With it lost,
// or another one, a push reads the fulfillments and posts nothing twice.
package shipments
