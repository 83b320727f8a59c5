package api

import (
	"bytes"
	"fmt"
	"io"

	"lading/api/wire"
)

// readAnswer reads a read answer from r: its meta, the requested
// resource's records and the sideloads, in one pass over the body read
// whole.
func readAnswer[T any](r io.Reader, resource string, meta *Meta, items *[]*T, side *Sideloads) error {
	fail := func(err error) error { return fmt.Errorf("%s read answer: %w", resource, err) }
	mem := side.mem
	if mem == nil {
		mem = &pageMem{}
	}
	body, err := readBody(r, mem.body)
	if err != nil {
		return fail(err)
	}
	mem.body = body
	d := &recordDecoder{b: body, arena: &mem.arena}
	if d.peek() == 'n' { // null: an empty answer
		if err := d.skip(); err != nil {
			return fail(err)
		}
		return fail(d.end())
	}
	err = d.object(func(key []byte) error {
		switch name := view(key); name {
		case wire.KeyMeta:
			raw, err := d.value()
			if err == nil {
				err = meta.UnmarshalJSON(raw)
			}
			return err
		case resource:
			var err error
			if *items, err = readList[T](d); err != nil {
				return fmt.Errorf("%s: %w", resource, err)
			}
			return nil
		default:
			return side.readSideload(d, name)
		}
	})
	if err == nil {
		err = d.end()
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// pageMem is the memory a page is read into: its body's buffer and the
// blocks of its arena. A listing that reuses its memory
// (ListOptions.Reuse) reads each page into the memory of the one before,
// recycled: cleared, then filled with the next page, which a value kept
// from the page before without a copy then reads parts of.
type pageMem struct {
	body  []byte
	arena pageArena
}

// newPageMem is the memory of a listing that reuses it.
func newPageMem() *pageMem { return &pageMem{arena: pageArena{reused: true}} }

// recycle readies m for the next page.
func (m *pageMem) recycle() {
	clear(m.body)
	m.body = m.body[:0]
	m.arena.recycle()
}

// Page is one page of a read of records T: the answer's meta, its
// records and what it sideloads.
type Page[T record] struct {
	Meta    Meta
	Records []*T
	Sideloads
}

// record is a type of record a read answer lists: its resource's name is
// the answer's key for them.
type record interface{ resource() string }

// The pages of each resource.
type (
	VariantPage            = Page[Variant]
	ProductPage            = Page[Product]
	ProductTagPage         = Page[ProductTag]
	ProductFilePage        = Page[ProductFile]
	PackingSlipPage        = Page[PackingSlip]
	FulfillmentPage        = Page[Fulfillment]
	SalesOrderPage         = Page[SalesOrder]
	PackageCarrierTypePage = Page[PackageCarrierType]
)

func (Variant) resource() string            { return wire.Variants }
func (Product) resource() string            { return wire.Products }
func (ProductTag) resource() string         { return wire.ProductTags }
func (ProductFile) resource() string        { return wire.ProductFiles }
func (PackingSlip) resource() string        { return wire.PackingSlips }
func (Fulfillment) resource() string        { return wire.Fulfillments }
func (SalesOrder) resource() string         { return wire.SalesOrders }
func (PackageCarrierType) resource() string { return wire.PackageCarrierTypes }

// Total is how many records the whole listing holds (Meta.Total).
func (p *Page[T]) Total() int { return p.Meta.Total }

// UnmarshalJSON decodes a read answer of the page's resource.
func (p *Page[T]) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *Page[T]) readFrom(r io.Reader) error {
	var t T
	return readAnswer(r, t.resource(), &p.Meta, &p.Records, &p.Sideloads)
}
