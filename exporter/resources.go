package exporter

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/exporter/sheet"
)

// resources are the exports written through a layout (products, whose
// columns depend on the pricing tiers, have their own).
var resources = map[string]resource{
	Tags:         {wire: wire.ProductTags, entities: []entity{tagEntity}, rows: tagRows},
	Variants:     {wire: wire.Variants, entities: []entity{variantEntity}, rows: variantRows},
	PackingSlips: {wire: wire.PackingSlips, entities: slipEntities, rows: slipRows},
	Fulfillments: {wire: wire.Fulfillments, entities: fulfillmentEntities, rows: fulfillmentRows},
	PullLines:    {wire: wire.Fulfillments, entities: []entity{pullEntity}, rows: pullRows},
}

var tagEntity = entity{name: "tags", fields: []field{
	{"id", sheet.Integer}, {"name", sheet.Text}, {"created_at", sheet.DateTime}, {"updated_at", sheet.DateTime}}}

func tagRows(ctx context.Context, o Options, lo *api.ListOptions, add func(int, []string) error, sum *Summary) error {
	var err error
	sum.Pages, err = readPages(ctx, o.Client.ProductTags.ListPages, lo, o.Concurrency,
		func(p *api.ProductTagPage) error {
			for _, t := range p.Records {
				if t.Deleted.Bool() {
					continue
				}
				sum.Records++
				if err := add(0, []string{string(t.ID), string(t.Name), string(t.CreatedAt), string(t.UpdatedAt)}); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

var variantEntity = entity{name: "variants", fields: []field{
	{"id", sheet.Integer}, {"product_id", sheet.Integer}, {"product_name", sheet.Text}, {"sku", sheet.Text},
	{"upc", sheet.Text}, {"description", sheet.Text}, {"auto_description", sheet.Text}, {"options", sheet.Text},
	{"prices", sheet.Text}, {"weight", sheet.Number}, {"cost", sheet.Money}, {"average_cost", sheet.Money},
	{"supplier_cost", sheet.Money}, {"stock", sheet.Number}, {"committed_stock", sheet.Number},
	{"available", sheet.Number}, {"stock_by_warehouse", sheet.Text}, {"low_stock_alert", sheet.Number},
	{"location_1", sheet.Text}, {"bundle", sheet.Integer}, {"component", sheet.Integer}, {"notes", sheet.Text},
	{"created_at", sheet.DateTime}, {"updated_at", sheet.DateTime}}}

func variantRows(ctx context.Context, o Options, lo *api.ListOptions, add func(int, []string) error, sum *Summary) error {
	var err error
	var vr variantRower
	sum.Pages, err = readPages(ctx, o.Client.Variants.ListPages, lo, o.Concurrency,
		func(p *api.VariantPage) error {
			for _, v := range p.Records {
				if v.Deleted.Bool() {
					continue
				}
				sum.Records++
				if err := add(0, vr.row(p, v)); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

// variantRower makes the rows of variants, reusing its buffers from row to
// row: a row is valid until the next (add does not keep it).
type variantRower struct {
	cells   []string
	prices  []api.TierPrice
	options []api.OptionValue
	pairs   pairJoiner
}

// row is a variant with its joins: its product's name, its options and
// prices ("Color=Red; Size=S"), its stock in each warehouse.
func (vr *variantRower) row(p *api.VariantPage, v *api.Variant) []string {
	name := ""
	if prod := p.Product(v); prod != nil {
		name = string(prod.Name)
	}
	j := &vr.pairs
	j.reset()
	vr.options = p.AppendOptions(vr.options[:0], v)
	for _, ov := range vr.options {
		j.add(ov.Attribute, ov.Value)
	}
	opts := j.join(false)
	j.reset()
	vr.prices = p.AppendPrices(vr.prices[:0], v)
	for _, tp := range vr.prices {
		j.add(tp.Tier, string(tp.Price))
	}
	prices := j.join(true)
	j.reset()
	for _, lid := range v.Links.Of(wire.WarehouseStockLevels) {
		if l := p.WarehouseStockLevels[lid.ID]; l != nil {
			wh := string(l.WarehouseID())
			if a := p.AccountAddresses[l.WarehouseID()]; a != nil && a.Label != "" {
				wh = string(a.Label)
			}
			j.add(wh, string(l.Available))
		}
	}
	levels := j.join(true)
	vr.cells = append(vr.cells[:0], string(v.ID), string(v.ProductID()), name, string(v.SKU), string(v.UPC), string(v.Description),
		string(v.AutoDescription), opts, prices, string(v.Weight), string(v.Cost),
		string(v.AverageCost), string(v.SupplierCost), string(v.Stock), string(v.CommittedStock), string(v.Available),
		levels, string(v.LowStockAlert), string(v.Location1), string(v.Bundle), string(v.Component),
		string(v.Notes), string(v.CreatedAt), string(v.UpdatedAt))
	return vr.cells
}

// pairJoiner makes a cell of key=value pairs joined by "; ", in the order
// given or sorted as text, in one allocation (none for none).
type pairJoiner struct {
	buf   []byte
	pairs [][2]int // where each pair is in buf
}

func (j *pairJoiner) reset() { j.buf, j.pairs = j.buf[:0], j.pairs[:0] }

// add adds the pair key=value.
func (j *pairJoiner) add(key, value string) {
	start := len(j.buf)
	j.buf = append(append(append(j.buf, key...), '='), value...)
	j.pairs = append(j.pairs, [2]int{start, len(j.buf)})
}

// join is the cell: the pairs joined by "; ", sorted as text first when
// sorted is set.
func (j *pairJoiner) join(sorted bool) string {
	switch len(j.pairs) {
	case 0:
		return ""
	case 1:
		return string(j.buf)
	}
	if sorted {
		slices.SortFunc(j.pairs, func(a, b [2]int) int { return bytes.Compare(j.buf[a[0]:a[1]], j.buf[b[0]:b[1]]) })
	}
	var sb strings.Builder
	sb.Grow(len(j.buf) + 2*(len(j.pairs)-1))
	for i, p := range j.pairs {
		if i > 0 {
			sb.WriteString("; ")
		}
		sb.Write(j.buf[p[0]:p[1]])
	}
	return sb.String()
}
