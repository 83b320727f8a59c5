package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"mime/multipart"

	"lading/api/wire"
)

// ProductFilesService reads, uploads and deletes product files. [Spec]
type ProductFilesService struct{ c *Client }

// ListPages reads product files page by page.
func (s *ProductFilesService) ListPages(ctx context.Context, opts *ListOptions) iter.Seq2[*ProductFilePage, error] {
	return listPages[ProductFile](ctx, s.c, opts)
}

// Total reads how many product files match opts (nil: all): one read, of one record.
func (s *ProductFilesService) Total(ctx context.Context, opts *ListOptions) (int, error) {
	return total[ProductFile](ctx, s.c, opts)
}

// List reads every product file matching opts.
func (s *ProductFilesService) List(ctx context.Context, opts *ListOptions) iter.Seq2[*ProductFile, error] {
	return records(s.ListPages(ctx, opts))
}

// Get reads product files by id (the detail read).
func (s *ProductFilesService) Get(ctx context.Context, ids ...ID) (*ProductFilePage, error) {
	return getPage[ProductFile](ctx, s.c, ids)
}

// Upload attaches the content of r, named name, to a product: a multipart
// body with `json` (the write envelope {action: write, ProductFiles:
// [{links: {Products: [{id}]}}]}), `action` = write and `file`. The content
// is read into memory (at most wire.MaxProductFileBytes) so that a
// throttled upload can be sent again.
func (s *ProductFilesService) Upload(ctx context.Context, productID ID, name string, r io.Reader) (*WriteResult, error) {
	if productID == "" {
		return nil, fmt.Errorf("api: product file %q: %w: no product id", name, ErrInvalid)
	}
	if name == "" {
		return nil, fmt.Errorf("api: product file of product %s: %w: no file name", productID, ErrInvalid)
	}
	content, err := io.ReadAll(io.LimitReader(r, wire.MaxProductFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("api: product file %q: %w: reading it: %w", name, ErrNotApplied, err)
	}
	if len(content) > wire.MaxProductFileBytes {
		return nil, fmt.Errorf("api: product file %q: %w: larger than %d bytes", name, ErrInvalid, wire.MaxProductFileBytes)
	}
	env, err := marshal(map[string]any{
		wire.KeyAction: wire.ActionWrite,
		wire.ProductFiles: []map[string]any{{
			wire.KeyLinks: map[string][]Ref{wire.Products: {{ID: productID}}},
		}},
	})
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField(wire.MultipartJSONPart, string(env)); err != nil {
		return nil, err
	}
	if err := mw.WriteField(wire.KeyAction, wire.ActionWrite); err != nil {
		return nil, err
	}
	fw, err := mw.CreateFormFile(wire.MultipartFilePart, name)
	if err != nil {
		return nil, err
	}
	if _, err := fw.Write(content); err != nil {
		return nil, err
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	cl := call{path: wire.WritePath(wire.ProductFiles), body: body.Bytes(), contentType: mw.FormDataContentType(), write: true}
	return s.c.sendWrite(ctx, wire.ProductFiles, cl, 1)
}

// Delete marks product files deleted ({id, delete: "1"}, the string form
// the specification shows for files).
func (s *ProductFilesService) Delete(ctx context.Context, ids ...ID) (*WriteResult, error) {
	type rec struct {
		ID     ID     `json:"id"`
		Delete string `json:"delete"`
	}
	recs := make([]rec, len(ids))
	for i, id := range ids {
		recs[i] = rec{ID: id, Delete: "1"}
	}
	return writeRecords(ctx, s.c, wire.ProductFiles, recs, nil)
}
