package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// shopifyColumns are the columns of a Shopify product export that the
// shopify template reads, and a few it ignores, as real exports carry them.
var shopifyColumns = []string{
	"Handle", "Title", "Body (HTML)", "Vendor", "Type", "Tags", "Published",
	"Option1 Name", "Option1 Value", "Option2 Name", "Option2 Value", "Option3 Name", "Option3 Value",
	"Variant SKU", "Variant Grams", "Variant Inventory Tracker", "Variant Inventory Qty",
	"Variant Inventory Policy", "Variant Fulfillment Service", "Variant Price", "Variant Compare At Price",
	"Variant Requires Shipping", "Variant Taxable", "Variant Barcode", "Cost per item", "Status",
}

var (
	colors = []string{"Red", "Blue", "Green", "Black", "White", "Grey", "Navy", "Olive"}
	sizes  = []string{"S", "M", "L", "XL"}
	nouns  = []string{"Tee", "Hoodie", "Cap", "Jacket", "Sock", "Scarf", "Tote", "Mug"}
	adjs   = []string{"Classic", "Organic", "Vintage", "Everyday", "Alpine", "Coastal", "Urban", "Studio"}
)

// writeShopify writes products × variantsPer rows after the header, as
// Shopify writes them: title, body, vendor, tags and option names on each
// product's first row only; the handle, option values and variant columns
// on every row. Variants are Color × Size (and Material beyond 32 per
// product); a single "Default Title" variant when variantsPer is 1. When
// change is above 0, every change-th variant's price is 1 higher.
func writeShopify(w io.Writer, products, variantsPer, change int) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(shopifyColumns); err != nil {
		return err
	}
	row := make([]string, len(shopifyColumns))
	for p := range products {
		for v := range variantsPer {
			shopifyRow(row, p, v, variantsPer)
			if n := p*variantsPer + v; change > 0 && n%change == change-1 {
				row[19] = decimal(price(p) + 1)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// shopifyRow fills row with variant v of product p.
func shopifyRow(row []string, p, v, variantsPer int) {
	clear(row)
	adj, noun := adjs[p%len(adjs)], nouns[(p/len(adjs))%len(nouns)]
	row[0] = fmt.Sprintf("%s-%s-%d", strings.ToLower(adj), strings.ToLower(noun), p+1)
	first := v == 0
	if first {
		row[1] = fmt.Sprintf("%s %s %d", adj, noun, p+1)
		row[2] = fmt.Sprintf("<p>The %s %s, made to last.</p>", strings.ToLower(adj), strings.ToLower(noun))
		row[3], row[4] = "Lading Goods", noun
		row[5] = adj + ", " + noun
		row[6], row[25] = "TRUE", "active"
	}
	sku := fmt.Sprintf("SH%06d", p+1)
	if variantsPer == 1 {
		row[8] = "Default Title"
		if first {
			row[7] = "Title"
		}
	} else {
		color, size := colors[(v/len(sizes))%len(colors)], sizes[v%len(sizes)]
		row[8], row[10] = color, size
		sku += "-" + strings.ToUpper(color) + "-" + size
		if first {
			row[7], row[9] = "Color", "Size"
		}
		if variantsPer > len(colors)*len(sizes) {
			m := strconv.Itoa(v/(len(colors)*len(sizes)) + 1)
			row[12] = m
			sku += "-" + m
			if first {
				row[11] = "Material"
			}
		}
	}
	n := p*variantsPer + v
	cost := productCost(p)
	row[13] = sku
	row[14] = strconv.Itoa(200 + n%9*50)
	row[15] = "shopify"
	row[16] = strconv.Itoa((n * 13) % 120)
	row[17], row[18] = "deny", "manual"
	row[19] = decimal(price(p))
	if p%3 == 0 {
		row[20] = decimal(cost * 3)
	}
	row[21], row[22] = "TRUE", "TRUE"
	row[23] = fmt.Sprintf("%012d", 50000000000+int64(n)*7)
	row[24] = decimal(cost)
}

// productCost is the cost of product p's variants; price is their price.
func productCost(p int) float64 { return 4 + float64(p%40)/2 }

func price(p int) float64 { return productCost(p) * 2.5 }

// decimal writes f with at most two decimals and no trailing zeros.
func decimal(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
