package exporter

import (
	"fmt"
	"strings"

	"lading/api"
	"lading/api/wire"
)

// catalogColumns are the generic template's columns (templates/generic.yaml)
// before its pricing tiers, one column each, named tierPrefix + tier name.
// The last, file_ids, lists the ids of the product's files (its images),
// separated by "|", on each of its rows: a report shows which products
// still lack an image. An import through the generic template does not
// read it.
var catalogColumns = []string{"product_key", "product_name", "product_description", "product_notes", "tags",
	"sku", "description", "weight", "cost", "upc", "stock",
	"option1_name", "option1_value", "option2_name", "option2_value", "option3_name", "option3_value", "file_ids"}

const (
	tierPrefix    = "tier:"
	catalogPairs  = 3 // option name/value pairs of the layout
	tagSeparator  = "|"
	firstOption   = 11 // index of option1_name
	fileIDs       = 17 // index of file_ids
	catalogFields = 18
)

// catalogRows turns a page of products into rows of the generic layout,
// one per variant, with the variant's prices by tier in Extra.
func catalogRows(p *api.ProductPage, emit func(spoolRow) error) error {
	for _, prod := range p.Records {
		if prod.Deleted.Bool() {
			continue
		}
		vs := p.VariantsOf(prod)
		key := productKey(prod, vs)
		tags := strings.Join(p.Tags(prod), tagSeparator)
		var files []string
		for _, id := range prod.Links.IDs(wire.ProductFiles) {
			files = append(files, string(id))
		}
		for _, v := range vs {
			if v.Deleted.Bool() {
				continue
			}
			cells := make([]string, catalogFields)
			copy(cells, []string{key, string(prod.Name), string(prod.Description), string(prod.Notes), tags,
				string(v.SKU), string(v.Description), string(v.Weight), string(v.Cost), string(v.UPC), string(v.Stock)})
			opts := p.Options(v)
			if len(opts) > catalogPairs {
				return fmt.Errorf("%w: product %s (%q) has %d attributes; the catalog layout holds %d: export chosen columns, or through a report template, instead",
					ErrTooManyAttributes, prod.ID, prod.Name, len(opts), catalogPairs)
			}
			for i, o := range opts {
				cells[firstOption+2*i], cells[firstOption+2*i+1] = o.Attribute, o.Value
			}
			cells[fileIDs] = strings.Join(files, tagSeparator)
			var tiers map[string]string
			for name, price := range p.Prices(v) {
				if tiers == nil {
					tiers = map[string]string{}
				}
				tiers[tierPrefix+name] = string(price)
			}
			if err := emit(spoolRow{Cells: cells, Extra: tiers}); err != nil {
				return err
			}
		}
	}
	return nil
}

// productKey groups a product's rows when the file is imported again: its
// first variant's SKU (SKUs are unique in an account, and stay the same
// when the catalog is imported into another), else its name, as an import
// matches products without SKUs by name.
func productKey(p *api.Product, vs []*api.Variant) string {
	for _, v := range vs {
		if !v.Deleted.Bool() && v.SKU != "" {
			return string(v.SKU)
		}
	}
	return "name:" + string(p.Name)
}
