package exporter

import (
	"cmp"
	"context"
	"strconv"
	"strings"

	"lading/api"
	"lading/exporter/sheet"
)

// Kinds of rows of a packing slips export.
const (
	entSlips = iota
	entSlipLines
	entShipments
)

var slipEntities = []entity{
	{name: "slips", fields: []field{
		{"id", sheet.Integer}, {"local_id", sheet.Text}, {"packing_slip_date", sheet.Date}, {"ship_date", sheet.Date},
		{"status", sheet.Text}, {"void", sheet.Integer}, {"sales_orders", sheet.Text}, {"ship_to", sheet.Text},
		{"address", sheet.Text}, {"lines", sheet.Integer}, {"units", sheet.Number}, {"shipments", sheet.Integer},
		{"tracking_numbers", sheet.Text}, {"shipping_cost", sheet.Money}, {"notes", sheet.Text},
		{"created_at", sheet.DateTime}, {"updated_at", sheet.DateTime}}},
	{name: "lines", fields: []field{
		{"slip_id", sheet.Integer}, {"slip_local_id", sheet.Text}, {"packing_slip_date", sheet.Date}, {"line_item_id", sheet.Integer},
		{"sku", sheet.Text}, {"description", sheet.Text}, {"quantity", sheet.Number}, {"price", sheet.Money},
		{"sales_order", sheet.Text}}},
	{name: "shipments", fields: []field{
		{"slip_id", sheet.Integer}, {"slip_local_id", sheet.Text}, {"shipment_id", sheet.Integer}, {"ship_date", sheet.Date},
		{"carrier", sheet.Text}, {"tracking_number", sheet.Text}, {"tracking_link", sheet.Text}, {"delivered", sheet.Integer},
		{"cost", sheet.Money}, {"notes", sheet.Text}}},
}

func slipRows(ctx context.Context, o Options, lo *api.ListOptions, add func(int, []string) error, sum *Summary) error {
	var err error
	sum.Pages, err = readPages(ctx, o.Client.PackingSlips.ListPages, lo, o.Concurrency,
		func(p *api.PackingSlipPage) error {
			for _, s := range p.Records {
				if s.Deleted.Bool() {
					continue
				}
				sum.Records++
				if err := slipRowsOf(p, s, add); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

// slipRowsOf gives a slip's row, then one row per line and per shipment.
func slipRowsOf(p *api.PackingSlipPage, s *api.PackingSlip, add func(int, []string) error) error {
	orders := orderNames(p.SalesOrdersOf(s.Links))
	shipTo, address := addressOf(p.Sideloads, s.Links)
	var lines, units, cost float64
	for _, l := range p.SlipLines(s) {
		if l.Item.Deleted.Bool() {
			continue
		}
		lines++
		q, _ := l.Quantity.Float()
		units += q
		li := l.Item
		row := []string{string(s.ID), string(s.LocalID), string(s.PackingSlipDate), string(li.ID), string(li.SKU),
			string(li.Description), string(l.Quantity), string(li.Price), orders}
		if err := add(entSlipLines, row); err != nil {
			return err
		}
	}
	packages := p.PackagesOf(s)
	var tracking []string
	for _, pk := range packages {
		c, _ := pk.Cost.Float()
		cost += c
		if pk.TrackingNumber != "" {
			tracking = append(tracking, string(pk.TrackingNumber))
		}
		row := []string{string(s.ID), string(s.LocalID), string(pk.ID), string(pk.ShipDate), p.Carrier(pk), string(pk.TrackingNumber),
			string(pk.TrackingLink), string(pk.Delivered), string(pk.Cost), string(pk.Notes)}
		if err := add(entShipments, row); err != nil {
			return err
		}
	}
	row := []string{string(s.ID), string(s.LocalID), string(s.PackingSlipDate), string(s.ShipDate), string(s.Status),
		string(s.Void), orders, shipTo, address, num(lines), num(units), num(float64(len(packages))), strings.Join(tracking, " "),
		money(cost), string(s.Notes), string(s.CreatedAt), string(s.UpdatedAt)}
	return add(entSlips, row)
}

// orderNames names sales orders by their reference, else their id.
func orderNames(orders []*api.SalesOrder) string {
	parts := make([]string, len(orders))
	for i, so := range orders {
		parts[i] = string(so.ID)
		if so.LocalID != "" {
			parts[i] = string(so.LocalID)
		}
	}
	return strings.Join(parts, " ")
}

// addressOf is the shipping address a record links (the first, when none
// is marked shipping): who (company or contact) and where, on one line.
func addressOf(s api.Sideloads, links api.Links) (who, where string) {
	addrs := s.AddressesOf(links)
	if len(addrs) == 0 {
		return "", ""
	}
	a := shippingAddress(s, links, addrs[0])
	who = cmp.Or(string(a.Company), string(a.Contact))
	var parts []string
	for _, f := range []api.Flex{a.Street1, a.Street2, a.City, a.State, a.Zip, a.Country} {
		if f != "" {
			parts = append(parts, string(f))
		}
	}
	return who, strings.Join(parts, ", ")
}

func num(f float64) string   { return strconv.FormatFloat(f, 'f', -1, 64) }
func money(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

var fulfillmentEntities = []entity{{name: "lines", fields: []field{
	{"fulfillment_id", sheet.Integer}, {"status", sheet.Text}, {"created_at", sheet.DateTime}, {"sales_order", sheet.Text},
	{"ship_to", sheet.Text}, {"address", sheet.Text}, {"line_item_id", sheet.Integer}, {"sku", sheet.Text},
	{"variant_id", sheet.Integer}, {"location", sheet.Text}, {"quantity", sheet.Number}, {"shipped_quantity", sheet.Number},
	{"to_pick", sheet.Number}, {"bundle", sheet.Text}}}}

func fulfillmentRows(ctx context.Context, o Options, lo *api.ListOptions, add func(int, []string) error, sum *Summary) error {
	var err error
	sum.Pages, err = readPages(ctx, o.Client.Fulfillments.ListPages, lo, o.Concurrency,
		func(p *api.FulfillmentPage) error {
			for _, f := range p.Records {
				sum.Records++
				if err := fulfillmentRowsOf(p, f, add); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

// fulfillmentRowsOf gives one row per variant to pick for f, bundles as
// their components (naming the bundle).
func fulfillmentRowsOf(p *api.FulfillmentPage, f *api.Fulfillment, add func(int, []string) error) error {
	order := orderNames(p.SalesOrdersOf(f.Links))
	shipTo, address := addressOf(p.Sideloads, f.Links)
	picks, err := p.PickLines(f)
	if err != nil {
		return err
	}
	for _, pl := range picks {
		row := []string{string(f.ID), string(f.Status), string(f.CreatedAt), order, shipTo, address, string(pl.Line.ID),
			string(pl.SKU), string(pl.VariantID), string(pl.Location), strconv.FormatInt(pl.Quantity, 10),
			strconv.FormatInt(pl.Shipped, 10), strconv.FormatInt(pl.ToPick(), 10), string(pl.Bundle)}
		if err := add(0, row); err != nil {
			return err
		}
	}
	return nil
}
