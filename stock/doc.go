// Package stock pushes stock levels from a file to the service: the job a
// warehouse (or the 3PL running it) runs every few minutes, unattended,
// after the catalog was imported once.
//
// A push goes in phases that hand values on: read the file through a
// mapping's stock section (Read); find each SKU's variant and the
// warehouse of each row, from the state's memory first and with the
// fewest reads for the rest (resolve); compare each level with the last
// one pushed and confirmed, or with the live level when verifying (plan);
// send what differs as set_available writes of up to 100 levels through
// the shared worker pool, each batch recorded before it is sent and its
// levels remembered only once the service confirms them (send); and write
// one results line per input row (report).
//
// A push never creates or changes anything but stock levels. Rows it
// cannot place (an unknown SKU, a bad quantity, a SKU given twice with
// different quantities, an unknown warehouse) are reported on their rows
// and the rest goes ahead, unless the push is strict.
package stock
