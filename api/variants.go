package api

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"

	"lading/api/wire"
	"lading/internal/jsonstr"
)

// VariantsService reads and writes variants. [Spec]
type VariantsService struct{ c *Client }

// VariantWrite is a variant record of a write, on its own (Variants.Write)
// or inside a product create (ProductLinks.Variants). Only the fields set
// are sent; a record with ID edits that variant.
type VariantWrite struct {
	ID            ID            `json:"id,omitempty"`
	SKU           *string       `json:"sku,omitempty"`
	UPC           *string       `json:"upc,omitempty"`
	Description   *string       `json:"description,omitempty"`
	Notes         *string       `json:"notes,omitempty"`
	Weight        *string       `json:"weight,omitempty"`
	Cost          *string       `json:"cost,omitempty"`
	Quantity      *string       `json:"quantity,omitempty"` // opening stock, on create only
	Location1     *string       `json:"location_1,omitempty"`
	LowStockAlert *string       `json:"low_stock_alert,omitempty"`
	SupplierCost  *string       `json:"supplier_cost,omitempty"`
	Delete        int           `json:"delete,omitempty"`
	Links         *VariantLinks `json:"links,omitempty"`
}

// VariantLinks are the related records of a variant write.
type VariantLinks struct {
	AttributeOptions   []OptionRef `json:"AttributeOptions,omitempty"`
	Products           []Ref       `json:"Products,omitempty"`
	PricingTiers       []TierValue `json:"PricingTiers,omitempty"`
	ReconcileInventory []Reconcile `json:"ReconcileInventory,omitempty"`
}

// OptionRef is an option value of a variant being written. Attribute names
// the attribute it belongs to (sent as links.Attributes [{name}], created
// if new); inside a product create it may be left empty to mean the
// product's Attributes at the same position.
type OptionRef struct {
	Value     string
	Order     *int
	Attribute string
}

// MarshalJSON writes {value, order?, links?: {Attributes: [{name}]}}. It
// appends the JSON itself: a batch of variants holds thousands of options,
// and encoding/json took a struct and reflection for each.
func (o OptionRef) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(o.Value)+len(o.Attribute)+64)
	b = append(b, `{"value":`...)
	b = jsonstr.Append(b, o.Value)
	if o.Order != nil {
		b = append(b, `,"order":`...)
		b = strconv.AppendInt(b, int64(*o.Order), 10)
	}
	if o.Attribute != "" {
		b = append(b, `,"links":{"Attributes":[{"name":`...)
		b = jsonstr.Append(b, o.Attribute)
		b = append(b, `}]}`...)
	}
	return append(b, '}'), nil
}

// Reconcile is one stock change of a variant write. [A.7]
type Reconcile struct {
	Change string         `json:"change"`
	Units  float64        `json:"units"`
	Links  ReconcileLinks `json:"links"`
}

// ReconcileLinks names the warehouse of a stock change.
type ReconcileLinks struct {
	AccountAddresses []Ref `json:"AccountAddresses"`
}

// ListPages reads variants page by page, with sideloads (products,
// attributes, options, prices, stock levels). Filterable attributes:
// wire.Filterable[wire.Variants].
func (s *VariantsService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*VariantPage, error] {
	return listPages[Variant](ctx, s.c, opts)
}

// Total reads how many variants match opts (nil: all): one read, of one record.
func (s *VariantsService) Total(ctx context.Context, opts *ListOptions) (int, error) {
	return total[Variant](ctx, s.c, opts)
}

// List reads every variant matching opts, paging to the last page.
func (s *VariantsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*Variant, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads variants by id (the detail read), with sideloads.
func (s *VariantsService) Get(ctx context.Context, ids ...ID) (*VariantPage, error) {
	return getPage[Variant](ctx, s.c, ids)
}

// BySKUChunk is how many SKUs one BySKU request asks for, as `or`
// conditions: as many as one page holds, so each chunk is one request.
const BySKUChunk = wire.MaxPageSize

// BySKU looks variants up by SKU, BySKUChunk SKUs per request (an `or` of
// sku conditions), and returns those found keyed by SKU. Empty and repeated
// SKUs are skipped; a SKU the service does not know is absent from the map.
func (s *VariantsService) BySKU(ctx context.Context, skus []string) (map[string]*Variant, error) {
	found := make(map[string]*Variant, len(skus))
	for p, err := range s.BySKUPages(ctx, skus) {
		if err != nil {
			return found, err
		}
		for _, v := range p.Records {
			if k := string(v.SKU); found[k] == nil {
				found[k] = v
			}
		}
	}
	return found, nil
}

// BySKUPages reads the pages of variants with the given SKUs, with their
// sideloads, BySKUChunk SKUs per request; empty and repeated SKUs are
// skipped. The pages hold only variants with one of the SKUs.
func (s *VariantsService) BySKUPages(ctx context.Context, skus []string) iter.Seq2[*VariantPage, error] {
	return func(yield func(*VariantPage, error) bool) {
		want := make(map[string]bool, len(skus))
		var uniq []string
		for _, k := range skus {
			if k != "" && !want[k] {
				want[k] = true
				uniq = append(uniq, k)
			}
		}
		start := 0
		for chunk := range slices.Chunk(uniq, BySKUChunk) {
			conds := make([]Cond, len(chunk))
			for i, k := range chunk {
				conds[i] = Where("sku", "=", k)
			}
			for p, err := range s.ListPages(ctx, &ListOptions{Filter: Or(conds...)}) {
				if err != nil {
					yield(nil, fmt.Errorf("looking up SKUs %d-%d of %d: %w", start+1, start+len(chunk), len(uniq), err))
					return
				}
				p.Records = slices.DeleteFunc(p.Records, func(v *Variant) bool { return !want[string(v.SKU)] })
				if !yield(p, nil) {
					return
				}
			}
			start += len(chunk)
		}
	}
}

// Write sends up to wire.MaxWriteRecords variant records in one request.
// Records the service rejected are in the result's Failed.
func (s *VariantsService) Write(ctx context.Context, records []VariantWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Variants, records, nil)
}

// WriteEncoded sends variant records already encoded (Encode), as they
// are: for a caller that keeps what it sends.
func (s *VariantsService) WriteEncoded(ctx context.Context, records Encoded[VariantWrite]) (*WriteResult, error) {
	return writeEncoded(ctx, s.c, wire.Variants, records)
}

// Delete marks variants deleted ({id, delete: 1}).
func (s *VariantsService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]VariantWrite, len(ids))
	for i, id := range ids {
		recs[i] = VariantWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}
