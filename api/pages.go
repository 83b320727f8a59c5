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

// page is what the listing iterator needs of a page type.
type page interface {
	pageMeta() Meta
	pageLen() int
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

// recycle readies m for the next page.
func (m *pageMem) recycle() {
	clear(m.body)
	m.body = m.body[:0]
	m.arena.recycle()
}

// setMem has a page type read its answer into m (nil: memory of its own).
func (s *Sideloads) setMem(m *pageMem) { s.mem = m }

// streamed is a page type read straight from an answer's body.
type streamed interface {
	readFrom(r io.Reader) error
}

// VariantPage is one page of a Variants read, with its sideloads.
type VariantPage struct {
	Meta     Meta
	Variants []*Variant
	Sideloads
}

// UnmarshalJSON decodes a Variants read answer.
func (p *VariantPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *VariantPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.Variants, &p.Meta, &p.Variants, &p.Sideloads)
}
func (p *VariantPage) pageMeta() Meta { return p.Meta }
func (p *VariantPage) pageLen() int   { return len(p.Variants) }

// ProductPage is one page of a Products read, with its sideloads.
type ProductPage struct {
	Meta     Meta
	Products []*Product
	Sideloads
}

// UnmarshalJSON decodes a Products read answer.
func (p *ProductPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *ProductPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.Products, &p.Meta, &p.Products, &p.Sideloads)
}
func (p *ProductPage) pageMeta() Meta { return p.Meta }
func (p *ProductPage) pageLen() int   { return len(p.Products) }

// ProductTagPage is one page of a ProductTags read.
type ProductTagPage struct {
	Meta        Meta
	ProductTags []*ProductTag
	Sideloads
}

// UnmarshalJSON decodes a ProductTags read answer.
func (p *ProductTagPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *ProductTagPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.ProductTags, &p.Meta, &p.ProductTags, &p.Sideloads)
}
func (p *ProductTagPage) pageMeta() Meta { return p.Meta }
func (p *ProductTagPage) pageLen() int   { return len(p.ProductTags) }

// ProductFilePage is one page of a ProductFiles read.
type ProductFilePage struct {
	Meta         Meta
	ProductFiles []*ProductFile
	Sideloads
}

// UnmarshalJSON decodes a ProductFiles read answer.
func (p *ProductFilePage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *ProductFilePage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.ProductFiles, &p.Meta, &p.ProductFiles, &p.Sideloads)
}
func (p *ProductFilePage) pageMeta() Meta { return p.Meta }
func (p *ProductFilePage) pageLen() int   { return len(p.ProductFiles) }

// PackingSlipPage is one page of a PackingSlips read.
type PackingSlipPage struct {
	Meta         Meta
	PackingSlips []*PackingSlip
	Sideloads
}

// UnmarshalJSON decodes a PackingSlips read answer.
func (p *PackingSlipPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *PackingSlipPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.PackingSlips, &p.Meta, &p.PackingSlips, &p.Sideloads)
}
func (p *PackingSlipPage) pageMeta() Meta { return p.Meta }
func (p *PackingSlipPage) pageLen() int   { return len(p.PackingSlips) }

// FulfillmentPage is one page of a fulfillments read, with its line items.
type FulfillmentPage struct {
	Meta         Meta
	Fulfillments []*Fulfillment
	Sideloads
}

// UnmarshalJSON decodes a fulfillments read answer.
func (p *FulfillmentPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *FulfillmentPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.Fulfillments, &p.Meta, &p.Fulfillments, &p.Sideloads)
}
func (p *FulfillmentPage) pageMeta() Meta { return p.Meta }
func (p *FulfillmentPage) pageLen() int   { return len(p.Fulfillments) }

// SalesOrderPage is one page of a SalesOrders read (by id: an assumed
// endpoint [B.8], shaped as the recorded answers it also decodes [A.3]).
type SalesOrderPage struct {
	Meta        Meta
	SalesOrders []*SalesOrder
	Sideloads
}

// UnmarshalJSON decodes a SalesOrders read answer.
func (p *SalesOrderPage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *SalesOrderPage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.SalesOrders, &p.Meta, &p.SalesOrders, &p.Sideloads)
}
func (p *SalesOrderPage) pageMeta() Meta { return p.Meta }
func (p *SalesOrderPage) pageLen() int   { return len(p.SalesOrders) }

// PackageCarrierTypePage is one page of a PackageCarrierTypes read.
type PackageCarrierTypePage struct {
	Meta                Meta
	PackageCarrierTypes []*PackageCarrierType
	Sideloads
}

// UnmarshalJSON decodes a PackageCarrierTypes read answer.
func (p *PackageCarrierTypePage) UnmarshalJSON(b []byte) error { return p.readFrom(bytes.NewReader(b)) }

// readFrom reads the answer from r, straight from the body.
func (p *PackageCarrierTypePage) readFrom(r io.Reader) error {
	return readAnswer(r, wire.PackageCarrierTypes, &p.Meta, &p.PackageCarrierTypes, &p.Sideloads)
}
