package importer

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
	"lading/mapping"
)

// What a row says when its write did not go through. Each message tells
// what happened and what to do about it, in the words of the person who
// runs the import; the service's own status and text follow in brackets.

// notSentMessage is what the rows of records the import never sent say
// (interrupted, or stopped for a refused token).
var notSentMessage = words.Stopped()

// recordRefusedMessage is what the rows of a record the service refused
// say: the product's rows for a product record, else the variant's row.
func recordRefusedMessage(product bool, f api.RecordError) string {
	what, msg := "variant", f.Message
	if product {
		what = "product"
	}
	if f.Field != "" {
		msg = f.Field + ": " + msg
	}
	return fmt.Sprintf("not written: the service refused this %s (%s); fix it in the file, then run the same command again", what, msg)
}

// refusedValue finds where in the file the value a record error names
// came from: the variant (of a variant record, or by its index in a
// product create's links.Variants) and the column the mapping reads the
// field from ("" when it is no column's: an expression, a constant, a
// field the mapping does not set).
func refusedValue(m *mapping.Mapping, r *record, field string) (vp *VariantPlan, column string) {
	vp = r.vp
	if rest, ok := strings.CutPrefix(field, "links.Variants["); ok && vp == nil {
		i, after, _ := strings.Cut(rest, "]")
		if n, err := strconv.Atoi(i); err == nil {
			vp, field = r.pp.sentVariant(n), strings.TrimPrefix(after, ".")
		}
	}
	var spec *mapping.ValueSpec
	switch {
	case vp == nil && field == "name":
		spec = m.Product.Name
	case vp == nil && field == "description":
		spec = m.Product.Description
	case vp == nil && field == "notes":
		spec = m.Product.Notes
	case vp != nil && field == "sku":
		spec = m.Variant.SKU
	case vp != nil && field == wire.VariantQuantity:
		spec = m.Variant.Stock
	case vp != nil:
		for _, f := range m.Variant.Fields {
			if f.Name == field {
				spec = f
			}
		}
	}
	if spec == nil {
		return vp, ""
	}
	return vp, spec.Column
}

// valueRefusedMessage is what the row of a value the service refused says,
// naming its column.
func valueRefusedMessage(column, msg string) string {
	return fmt.Sprintf("not written: the service refused this row's value in column %q (%s); fix it in the file, then run the same command again", column, msg)
}

// productValueRefusedMessage is what the rows of a product say when the
// service refused one of the product's values.
func productValueRefusedMessage(column, msg string) string {
	return fmt.Sprintf("not written: the service refused this product's value in column %q (%s); fix it in the file, then run the same command again", column, msg)
}

// rowRefusedMessage is what the other rows of a product say when the
// service refused a value in one of them.
func rowRefusedMessage(row catalog.RowRef, column, msg string) string {
	return fmt.Sprintf("not written: the service refused the value in column %q of %s row %d (%s); fix it there, then run the same command again", column, filepath.Base(row.File), row.Line, msg)
}
