// Package templates holds the mapping templates embedded in the binary:
// ready-made mappings for the layouts lading recognises (catalogs to
// import, stock levels, shipments and packing slips to push), and the
// report layouts of exports (Info.Kind). Which template a file's header
// fits is mapping's to say (mapping.Recognise, mapping.Suggest).
package templates

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"lading/suggest"
)

//go:embed *.yaml
var files embed.FS

// Info describes one template.
type Info struct {
	Name        string // what Get takes: "shopify", "woocommerce", "generic", "stock", ...
	Description string
	// Kind is what the template maps: KindCatalog (products to import)
	// or KindStock (stock levels to push; its mapping is stock-only).
	Kind string
}

// Kinds of templates.
const (
	KindCatalog = "catalog"
	KindStock   = "stock"
	// KindShipments templates map shipment-confirmation files (lading
	// shipments push); their mappings are shipments-only.
	KindShipments = "shipments"
	// KindSlips templates map files of packed and shipped slips (lading
	// slips push); their mappings are slips-only.
	KindSlips = "slips"
	// KindReport templates are report layouts for exports, not mappings.
	KindReport = "report"
)

var infos = []Info{
	{"shopify", "Shopify product CSV export (Handle, Option1 Name/Value, Variant SKU, Variant Price, ...)", KindCatalog},
	{"shopify-2024", "Shopify product CSV with the column names of Shopify's 2024 template (URL handle, Option1 name, SKU, Price, Inventory quantity, ...)", KindCatalog},
	{"bigcommerce", "BigCommerce product export, Default template (Product ID, Code, Name, Calculated Price, Stock Level, ...): a product per row", KindCatalog},
	{"bigcommerce-bulk-edit", "BigCommerce product export, Bulk Edit template (Item Type, Product ID, Product Name, Product Code/SKU, ...): Product rows with the SKU rows of their variants", KindCatalog},
	{"squarespace", "Squarespace product export (Product ID [Non Editable], Title, SKU, Option Name 1, Price, Stock, ...): products, and the variant rows under them", KindCatalog},
	{"woocommerce", "WooCommerce product CSV export (simple and variable products with their variations)", KindCatalog},
	{"magento2", "Magento 2 product CSV export (System > Data Transfer > Export): configurable products with their variants, simple, virtual and downloadable products", KindCatalog},
	{"prestashop", "PrestaShop products and combinations, two ;-separated files (lading import --template prestashop products.csv combinations.csv)", KindCatalog},
	{"generic", "lading's own layout, one row per variant (product_key, sku, option1_name, tier:<name>, ...); what exports write", KindCatalog},
	{"stock", "lading's stock layout: sku, quantity (units available) and an optional warehouse column", KindStock},
	{"shopify-inventory", "Shopify inventory CSV export (Products > Inventory > Export): Available per SKU and location", KindStock},
	{"amazon-fba", "Amazon FBA inventory report (Manage FBA Inventory, tab-separated .txt): afn-fulfillable-quantity per SKU", KindStock},
	{"shipments", "lading's shipments layout: fulfillment_id (or order_number), line_item_id or sku, quantity, tracking_number, carrier, ...", KindShipments},
	{"slips", "lading's packing slips layout: slip_key, order_id, line_item_id and quantity, package, ship_date, tracking_number, carrier, cost, ...", KindSlips},
	{"catalog", "products in the generic import layout, to edit and import back (lading export products)", KindReport},
	{"accounting-slips", "packing slips, their line items and shipments, with totals, for accountants (lading export packing-slips)", KindReport},
	{"picking", "open fulfillments by line, bundles as components, sorted by location for a pick walk (lading export fulfillments)", KindReport},
	{"shipstream", "ShipStream WMS order import (Order - Standard CSV): the open fulfillments, a row per line to ship (lading fulfillments pull)", KindReport},
}

// List returns the templates, in a stable order.
func List() []Info {
	return slices.Clone(infos)
}

// Get returns the YAML text of the template name. An unknown name gives an
// *UnknownError.
func Get(name string) ([]byte, error) {
	key := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(name), ".yaml"))
	for _, in := range infos {
		if in.Name == key {
			return files.ReadFile(in.Name + ".yaml")
		}
	}
	return nil, &UnknownError{Name: name}
}

// Names are the names of the templates of the kinds given (all of them
// when none is), in List's order.
func Names(kinds ...string) []string {
	var names []string
	for _, in := range infos {
		if len(kinds) == 0 || slices.Contains(kinds, in.Kind) {
			names = append(names, in.Name)
		}
	}
	return names
}

// UnknownError is the error of a template name no template has. It
// names the template closest to it, or else those there are.
type UnknownError struct {
	Name string
}

// Suggestion is the template whose name is closest to the unknown one,
// or "".
func (e *UnknownError) Suggestion() string {
	s, _ := suggest.Closest(strings.TrimSuffix(e.Name, ".yaml"), Names())
	return s
}

func (e *UnknownError) Error() string {
	if s := e.Suggestion(); s != "" {
		return fmt.Sprintf("no template %q; did you mean %s?", e.Name, s)
	}
	return fmt.Sprintf("no template %q; templates: %s", e.Name, strings.Join(Names(), ", "))
}
