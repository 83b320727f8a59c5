package exporter

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/exporter/sheet"
)

// PullLines is the resource of a fulfillments pull: the open
// fulfillments, one row per variant to ship (a bundle's line as its
// components), in lading's order-file layout.
//
// A pull's CSV cells are written as given (sheet.Options.Raw): the file is
// for a warehouse system to read, and "+1 217 555 0100" is a phone number.
const PullLines = "fulfillment-lines"

var pullEntity = entity{name: "lines", fields: []field{
	{"fulfillment_id", sheet.Integer}, {"order_id", sheet.Integer}, {"order_number", sheet.Text},
	{"line_item_id", sheet.Integer}, {"sku", sheet.Text}, {"variant_id", sheet.Integer},
	{"quantity", sheet.Number}, {"quantity_shipped", sheet.Number}, {"quantity_left", sheet.Number},
	{"status", sheet.Text}, {"created_at", sheet.DateTime}, {"bundle", sheet.Text},
	{"ship_to_name", sheet.Text}, {"ship_to_company", sheet.Text}, {"street1", sheet.Text}, {"street2", sheet.Text},
	{"city", sheet.Text}, {"state", sheet.Text}, {"zip", sheet.Text}, {"country", sheet.Text},
	{"ship_to_first_name", sheet.Text}, {"ship_to_last_name", sheet.Text}, {"street", sheet.Text},
	{"phone", sheet.Text}, {"email", sheet.Text}}}

func pullRows(ctx context.Context, o Options, lo *api.ListOptions, add func(int, []string) error, sum *Summary) error {
	var err error
	sum.Pages, err = readPages(ctx, o.Client.Fulfillments.ListPages, lo, o.Concurrency,
		func(p *api.FulfillmentPage) error {
			for _, f := range p.Records {
				if f.Complete.Bool() || (o.Keep != nil && !o.Keep(f.ID)) {
					continue
				}
				sum.Records++
				sum.IDs = append(sum.IDs, string(f.ID))
				if err := pullRowsOf(p, f, add); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

// pullRowsOf gives the rows of one fulfillment.
func pullRowsOf(p *api.FulfillmentPage, f *api.Fulfillment, add func(int, []string) error) error {
	var orderID, orderNumber string
	orders := p.SalesOrdersOf(f.Links)
	if len(orders) > 0 {
		orderID, orderNumber = string(orders[0].ID), string(orders[0].LocalID)
	}
	picks, err := p.PickLines(f)
	if err != nil {
		return err
	}
	recipient := shipTo(p, f, orders)
	for _, pl := range picks {
		row := append([]string{string(f.ID), orderID, orderNumber, string(pl.Line.ID), string(pl.SKU), string(pl.VariantID),
			strconv.FormatInt(pl.Quantity, 10), strconv.FormatInt(pl.Shipped, 10), strconv.FormatInt(pl.ToPick(), 10),
			string(f.Status), string(f.CreatedAt), string(pl.Bundle)}, recipient...)
		if err := add(0, row); err != nil {
			return err
		}
	}
	return nil
}

// shipTo is the ship-to part of a fulfillment's rows, in pullEntity's
// order: the address; its name split in two, and its street lines on one
// line, for layouts that want them so; a phone and an email, the
// address's when it carries them (the recipient's), else those of the
// order's contact (the customer's). All of it comes with the page.
func shipTo(p *api.FulfillmentPage, f *api.Fulfillment, orders []*api.SalesOrder) []string {
	var a api.Address
	if as := p.AddressesOf(f.Links); len(as) > 0 {
		a = *shippingAddress(p.Sideloads, f.Links, as[0])
	}
	phone, email := reachAt(a.Fields())
	if len(orders) > 0 {
		if cs := p.ContactsOf(orders[0].Links); len(cs) > 0 {
			cp, ce := reachAt(cs[0].Fields())
			phone, email = cmp.Or(phone, cp), cmp.Or(email, ce)
		}
	}
	first, last := splitName(string(a.Contact))
	lines := []string{strings.TrimSpace(string(a.Street1)), strings.TrimSpace(string(a.Street2))}
	street := strings.Join(slices.DeleteFunc(lines, func(s string) bool { return s == "" }), ", ")
	return []string{string(a.Contact), string(a.Company), string(a.Street1), string(a.Street2),
		string(a.City), string(a.State), string(a.Zip), string(cmp.Or(a.CountryISO, a.Country)),
		first, last, street, phone, email}
}

// reachAt is the phone and email among a record's fields.
func reachAt(fields map[string]api.Flex) (phone, email string) {
	return strings.TrimSpace(string(fields["phone"])), strings.TrimSpace(string(fields["email"]))
}

// splitName splits a full name before its last word: "Ana María Pérez"
// is "Ana María" and "Pérez". A one-word name is a first name.
func splitName(full string) (first, last string) {
	full = strings.Join(strings.Fields(full), " ")
	if i := strings.LastIndexByte(full, ' '); i >= 0 {
		return full[:i], full[i+1:]
	}
	return full, ""
}

// shippingAddress is the address links mark as shipping, else first.
func shippingAddress(s api.Sideloads, links api.Links, first *api.Address) *api.Address {
	for _, l := range links.Of(wire.Addresses) {
		if l.Type == "shipping" {
			if a := s.Addresses[l.ID]; a != nil {
				return a
			}
		}
	}
	return first
}
