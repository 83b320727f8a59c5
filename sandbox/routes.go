package sandbox

import (
	"maps"
	"net/http"
	"slices"

	"lading/api/wire"
)

// listSpec describes a listable resource: its table, the condition that
// hides records from listings, its filterable columns and how its records
// are rendered with their sideloads.
type listSpec struct {
	resource string
	table    string
	base     string // listing condition, e.g. "deleted = 0"
	cols     map[string]column
	render   func(t *txn, c *call, ids []int64, res *readResult) error
}

var commonCols = map[string]column{
	"id":         {"id", kInt},
	"created_at": {"created_at", kDate},
	"updated_at": {"updated_at", kDate},
}

func withCommon(m map[string]column) map[string]column {
	maps.Copy(m, commonCols)
	return m
}

func (s *Server) buildRoutes() map[string]*route {
	routes := map[string]*route{}
	get := func(path string) *route {
		r := routes[path]
		if r == nil {
			r = &route{}
			routes[path] = r
		}
		return r
	}
	specs := []*listSpec{productSpec(), variantSpec(), productFileSpec(), productTagSpec(), packingSlipSpec(), fulfillmentSpec()}
	for _, sp := range specs {
		list, detail := get(wire.ListPath(sp.resource)), get(wire.DetailPath(sp.resource))
		side := slices.Clone(wire.Sideloads[sp.resource])
		list.side, detail.side = side, side
		if list == detail {
			// PackingSlips: one path reads a listing or, given ids, details.
			list.read = func(t *txn, c *call) (*readResult, error) {
				if _, has := c.env[sp.resource]; has {
					return sp.detail(t, c)
				}
				return sp.list(t, c)
			}
			continue
		}
		list.read = sp.list
		detail.read = sp.detail
	}
	// Sales orders are read by id only. [B.8, assumed]
	orders := salesOrderSpec()
	detail := get(wire.DetailPath(orders.resource))
	detail.side, detail.read = slices.Clone(wire.Sideloads[orders.resource]), orders.detail
	for _, w := range []*writer{productWriter(), variantWriter(), productTagWriter(), productFileWriter(),
		packingSlipWriter(), packageWriter(), fulfillmentWriter(), shipmentWriter()} {
		get(wire.WritePath(w.resource)).write = w
	}
	return routes
}

// list answers a listing read.
func (sp *listSpec) list(t *txn, c *call) (*readResult, error) {
	q, aerr := parseListing(c.env, sp.resource, sp.cols)
	if aerr != nil {
		return nil, aerr
	}
	ids, total, err := t.listing(sp.table, sp.base, c.acc.account, q)
	if err != nil {
		return nil, err
	}
	res := &readResult{resource: sp.resource, meta: pageMeta(q.page, q.size, total, len(ids))}
	if len(ids) > 0 {
		if err := sp.render(t, c, ids, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// detail answers a read of records by id; deleted records are returned,
// marked deleted. An id of no record of the account is a 404. [B.1]
func (sp *listSpec) detail(t *txn, c *call) (*readResult, error) {
	ids, aerr := readIDs(c.env, sp.resource)
	if aerr != nil {
		return nil, aerr
	}
	found, err := t.existingIDs(sp.table, c.acc.account, ids)
	if err != nil {
		return nil, err
	}
	if len(ids) > 0 && len(found) == 0 {
		return nil, newAPIError(http.StatusNotFound, "no %s record with id %d in this account", sp.resource, ids[0])
	}
	size := max(wire.DefaultPageSize, len(found))
	res := &readResult{resource: sp.resource, meta: pageMeta(1, size, len(found), len(found))}
	if len(found) > 0 {
		if err := sp.render(t, c, found, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}
