package api

import (
	"context"
	"fmt"
	"iter"

	"lading/api/wire"
)

// ProductsService reads and writes products. [Spec]
type ProductsService struct{ c *Client }

// ProductWrite is a product record of a write. Only the fields set are
// sent: a record with ID edits that product (send only what changed), one
// without creates a product.
type ProductWrite struct {
	ID          ID            `json:"id,omitempty"`
	Name        *string       `json:"name,omitempty"`
	Description *string       `json:"description,omitempty"`
	Notes       *string       `json:"notes,omitempty"`
	Archive     int           `json:"archive,omitempty"`
	Delete      int           `json:"delete,omitempty"`
	Links       *ProductLinks `json:"links,omitempty"`
}

// ProductLinks are the related records of a product write.
//
// To create a product without variants, give Variants: []VariantWrite{{}}
// (one attributeless variant). With attributes, give Attributes and one
// VariantWrite per variant whose AttributeOptions[i] is the value of
// Attributes[i].
type ProductLinks struct {
	Variants     []VariantWrite `json:"Variants,omitempty"`
	Attributes   []AttributeRef `json:"Attributes,omitempty"`
	PricingTiers []TierValue    `json:"PricingTiers,omitempty"`
	ProductTags  []TagRef       `json:"ProductTags,omitempty"`
}

// AttributeRef names an attribute of a product being created, and its
// position.
type AttributeRef struct {
	Name  string `json:"name"`
	Order int    `json:"order"`
}

// TierValue is a price in a pricing tier, given by ID, or by Name (which
// creates the tier if it does not exist). Value is a decimal string.
type TierValue struct {
	ID    ID     `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	Value string `json:"value"`
}

// TagRef is a product tag given by ID, or by Name (which creates the tag).
type TagRef struct {
	ID   ID     `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// ListPages reads products page by page, with sideloads. Filterable
// attributes: wire.Filterable[wire.Products].
func (s *ProductsService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*ProductPage, error] {
	return listPages[Product](ctx, s.c, opts)
}

// Total reads how many products match opts (nil: all): one read, of one record.
func (s *ProductsService) Total(ctx context.Context, opts *ListOptions) (int, error) {
	return total[Product](ctx, s.c, opts)
}

// List reads every product matching opts, paging to the last page.
func (s *ProductsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*Product, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads products by id (the detail read), with sideloads.
func (s *ProductsService) Get(ctx context.Context, ids ...ID) (*ProductPage, error) {
	return getPage[Product](ctx, s.c, ids)
}

// Write sends up to wire.MaxWriteRecords product records in one request.
// Records the service rejected are in the result's Failed; see
// [WriteResult] and [Classify].
func (s *ProductsService) Write(ctx context.Context, records []ProductWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Products, records, nil)
}

// WriteEncoded sends product records already encoded (Encode), as they
// are: for a caller that keeps what it sends.
func (s *ProductsService) WriteEncoded(ctx context.Context, records Encoded[ProductWrite]) (*WriteResult, error) {
	return writeEncoded(ctx, s.c, wire.Products, records)
}

// Archive archives products one record each ({id, archive: 1}).
func (s *ProductsService) Archive(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]ProductWrite, len(ids))
	for i, id := range ids {
		recs[i] = ProductWrite{ID: id, Archive: 1}
	}
	return s.Write(ctx, recs)
}

// Delete marks products deleted ({id, delete: 1}).
func (s *ProductsService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]ProductWrite, len(ids))
	for i, id := range ids {
		recs[i] = ProductWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}

// Tag links tags (by id, or by name to create them) to one product.
func (s *ProductsService) Tag(ctx context.Context, id ID, tags ...TagRef) (*WriteResult, error) {
	return s.Write(ctx, []ProductWrite{{ID: id, Links: &ProductLinks{ProductTags: tags}}})
}

// BulkArchive archives products with one bulk action.
func (s *ProductsService) BulkArchive(ctx context.Context, ids []ID) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.Products, Refs(ids...), map[string]int{wire.BulkArchive: 1})
}

// BulkTag assigns tags (by id) to products with one bulk action.
func (s *ProductsService) BulkTag(ctx context.Context, ids []ID, tagIDs []ID) (*WriteResult, error) {
	return s.bulkTags(ctx, ids, tagIDs, 1)
}

// BulkUntag takes tags (by id) off products with one bulk action: the bulk
// tag with assign 0. [lading] The specification shows assign 1 only.
func (s *ProductsService) BulkUntag(ctx context.Context, ids []ID, tagIDs []ID) (*WriteResult, error) {
	return s.bulkTags(ctx, ids, tagIDs, 0)
}

func (s *ProductsService) bulkTags(ctx context.Context, ids []ID, tagIDs []ID, assign int) (*WriteResult, error) {
	if len(tagIDs) == 0 {
		return nil, fmt.Errorf("api: Products bulk tag: %w: no tag ids given", ErrInvalid)
	}
	tags := make([]map[string]any, len(tagIDs))
	for i, t := range tagIDs {
		tags[i] = map[string]any{"id": t, wire.BulkAssign: assign}
	}
	return writeRecords(ctx, s.c, wire.Products, Refs(ids...), map[string]any{wire.BulkTags: tags})
}
