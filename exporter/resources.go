package exporter

import (
	"context"
	"fmt"
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
	sum.Pages, err = readPages(ctx, o.Client.ProductTags.ListPages, lo, func(p *api.ProductTagPage) api.Meta { return p.Meta }, o.Concurrency,
		func(p *api.ProductTagPage) error {
			for _, t := range p.ProductTags {
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
	sum.Pages, err = readPages(ctx, o.Client.Variants.ListPages, lo, func(p *api.VariantPage) api.Meta { return p.Meta }, o.Concurrency,
		func(p *api.VariantPage) error {
			for _, v := range p.Variants {
				if v.Deleted.Bool() {
					continue
				}
				sum.Records++
				if err := add(0, variantRow(p, v)); err != nil {
					return err
				}
			}
			o.Progress.Reading(sum.Records)
			return nil
		})
	return err
}

// variantRow is a variant with its joins: its product's name, its options
// and prices ("Color=Red; Size=S"), its stock in each warehouse.
func variantRow(p *api.VariantPage, v *api.Variant) []string {
	name := ""
	if prod := p.Product(v); prod != nil {
		name = string(prod.Name)
	}
	var opts []string
	for _, ov := range p.Options(v) {
		opts = append(opts, ov.Attribute+"="+ov.Value)
	}
	var prices []string
	for tier, price := range p.Prices(v) {
		prices = append(prices, tier+"="+string(price))
	}
	slices.Sort(prices)
	var levels []string
	for _, lid := range v.Links.IDs(wire.WarehouseStockLevels) {
		if l := p.WarehouseStockLevels[lid]; l != nil {
			wh := string(l.WarehouseID())
			if a := p.AccountAddresses[l.WarehouseID()]; a != nil && a.Label != "" {
				wh = string(a.Label)
			}
			levels = append(levels, fmt.Sprintf("%s=%s", wh, l.Available))
		}
	}
	slices.Sort(levels)
	return []string{string(v.ID), string(v.ProductID()), name, string(v.SKU), string(v.UPC), string(v.Description),
		string(v.AutoDescription), strings.Join(opts, "; "), strings.Join(prices, "; "), string(v.Weight), string(v.Cost),
		string(v.AverageCost), string(v.SupplierCost), string(v.Stock), string(v.CommittedStock), string(v.Available),
		strings.Join(levels, "; "), string(v.LowStockAlert), string(v.Location1), string(v.Bundle), string(v.Component),
		string(v.Notes), string(v.CreatedAt), string(v.UpdatedAt)}
}
