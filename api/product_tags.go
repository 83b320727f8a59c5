package api

import (
	"context"
	"iter"

	"lading/api/wire"
)

// ProductTagsService reads and writes product tags. [Spec]
type ProductTagsService struct{ c *Client }

// ProductTagWrite is a product tag record of a write.
type ProductTagWrite struct {
	ID     ID     `json:"id,omitempty"`
	Name   string `json:"name,omitempty"`
	Delete int    `json:"delete,omitempty"`
}

// Total reads how many tags match opts (nil: all): one read, of one record.
func (s *ProductTagsService) Total(ctx context.Context, opts *ListOptions) (int, error) {
	return total[ProductTag](ctx, s.c, opts)
}

// ListPages reads tags page by page.
func (s *ProductTagsService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*ProductTagPage, error] {
	return listPages[ProductTag](ctx, s.c, opts)
}

// List reads every tag matching opts.
func (s *ProductTagsService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*ProductTag, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads tags by id (the detail read, on v1).
func (s *ProductTagsService) Get(ctx context.Context, ids ...ID) (*ProductTagPage, error) {
	return getPage[ProductTag](ctx, s.c, ids)
}

// Write sends tag records.
func (s *ProductTagsService) Write(ctx context.Context, records []ProductTagWrite) (*WriteResult, error) {
	return writeRecords(ctx, s.c, wire.ProductTags, records, nil)
}

// Create creates one tag per name.
func (s *ProductTagsService) Create(ctx context.Context, names ...string) (*WriteResult, error) {
	recs := make([]ProductTagWrite, len(names))
	for i, n := range names {
		recs[i] = ProductTagWrite{Name: n}
	}
	return s.Write(ctx, recs)
}

// Delete marks tags deleted ({id, delete: 1}).
func (s *ProductTagsService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	recs := make([]ProductTagWrite, len(ids))
	for i, id := range ids {
		recs[i] = ProductTagWrite{ID: id, Delete: 1}
	}
	return s.Write(ctx, recs)
}
