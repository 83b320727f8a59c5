package api

import (
	"fmt"
	"strings"

	"lading/api/wire"
)

// Set sets a scalar product field by its wire name (one of
// wire.ProductWriteFields), as a mapping names it.
func (p *ProductWrite) Set(field, value string) error {
	switch field {
	case "name":
		p.Name = &value
	case "description":
		p.Description = &value
	case "notes":
		p.Notes = &value
	default:
		return fmt.Errorf("product field %q cannot be written; writable: %s", field, strings.Join(wire.ProductWriteFields, ", "))
	}
	return nil
}

// WriteField returns the writable scalar field name (one of
// wire.VariantWriteFields) of a variant read: the read twin of
// VariantWrite.Set, from the decoded fields (RawRecord.Field decodes the
// record's JSON again). It is "" for other names.
func (v *Variant) WriteField(name string) string {
	switch name {
	case "sku":
		return string(v.SKU)
	case "upc":
		return string(v.UPC)
	case "description":
		return string(v.Description)
	case "notes":
		return string(v.Notes)
	case "weight":
		return string(v.Weight)
	case "cost":
		return string(v.Cost)
	case "location_1":
		return string(v.Location1)
	case "low_stock_alert":
		return string(v.LowStockAlert)
	case "supplier_cost":
		return string(v.SupplierCost)
	}
	return ""
}

// Set sets a scalar variant field by its wire name (one of
// wire.VariantWriteFields, or wire.VariantQuantity on create), as a mapping
// names it.
func (v *VariantWrite) Set(field, value string) error {
	var dst **string
	switch field {
	case "sku":
		dst = &v.SKU
	case "upc":
		dst = &v.UPC
	case "description":
		dst = &v.Description
	case "notes":
		dst = &v.Notes
	case "weight":
		dst = &v.Weight
	case "cost":
		dst = &v.Cost
	case "location_1":
		dst = &v.Location1
	case "low_stock_alert":
		dst = &v.LowStockAlert
	case "supplier_cost":
		dst = &v.SupplierCost
	case wire.VariantQuantity:
		dst = &v.Quantity
	default:
		return fmt.Errorf("variant field %q cannot be written; writable: %s, %s", field, strings.Join(wire.VariantWriteFields, ", "), wire.VariantQuantity)
	}
	*dst = &value
	return nil
}
