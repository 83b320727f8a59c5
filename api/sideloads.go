package api

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"unsafe"

	json "github.com/goccy/go-json"

	"lading/api/wire"
)

// Sideloads are the related records a read answer carries beside the
// requested resource, each kind indexed by id. Kinds this package does not
// type are kept, undecoded, in Raw under their resource name.
type Sideloads struct {
	Products             map[ID]*Product
	Variants             map[ID]*Variant
	Attributes           map[ID]*Attribute
	AttributeOptions     map[ID]*AttributeOption
	PricingTiers         map[ID]*PricingTier
	VariantPrices        map[ID]*VariantPrice
	ProductTags          map[ID]*ProductTag
	ProductFiles         map[ID]*ProductFile
	AccountAddresses     map[ID]*AccountAddress
	WarehouseStockLevels map[ID]*WarehouseStockLevel
	LineItems            map[ID]*LineItem
	SalesOrderLineItems  map[ID]*LineItem
	Fulfillments         map[ID]*Fulfillment
	Shipments            map[ID]*Shipment
	SalesOrders          map[ID]*SalesOrder
	Addresses            map[ID]*Address
	Contacts             map[ID]*Contact
	PackingSlips         map[ID]*PackingSlip
	Packages             map[ID]*Package
	PackageCarrierTypes  map[ID]*PackageCarrierType
	Raw                  map[string]json.RawMessage
	// mem is the memory the answer is read into, when a listing reuses
	// it (see pageMem); nil: its own.
	mem *pageMem
}

// sideloadReaders read each kind of sideload this package types.
var sideloadReaders = map[string]func(d *recordDecoder, s *Sideloads) error{
	wire.Products: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Products, err = readIndex(d, func(r *Product) ID { return r.ID })
		return err
	},
	wire.Variants: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Variants, err = readIndex(d, func(r *Variant) ID { return r.ID })
		return err
	},
	wire.Attributes: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Attributes, err = readIndex(d, func(r *Attribute) ID { return r.ID })
		return err
	},
	wire.AttributeOptions: func(d *recordDecoder, s *Sideloads) (err error) {
		s.AttributeOptions, err = readIndex(d, func(r *AttributeOption) ID { return r.ID })
		return err
	},
	wire.PricingTiers: func(d *recordDecoder, s *Sideloads) (err error) {
		s.PricingTiers, err = readIndex(d, func(r *PricingTier) ID { return r.ID })
		return err
	},
	wire.VariantPrices: func(d *recordDecoder, s *Sideloads) (err error) {
		s.VariantPrices, err = readIndex(d, func(r *VariantPrice) ID { return r.ID })
		return err
	},
	wire.ProductTags: func(d *recordDecoder, s *Sideloads) (err error) {
		s.ProductTags, err = readIndex(d, func(r *ProductTag) ID { return r.ID })
		return err
	},
	wire.ProductFiles: func(d *recordDecoder, s *Sideloads) (err error) {
		s.ProductFiles, err = readIndex(d, func(r *ProductFile) ID { return r.ID })
		return err
	},
	wire.AccountAddresses: func(d *recordDecoder, s *Sideloads) (err error) {
		s.AccountAddresses, err = readIndex(d, func(r *AccountAddress) ID { return r.ID })
		return err
	},
	wire.WarehouseStockLevels: func(d *recordDecoder, s *Sideloads) (err error) {
		s.WarehouseStockLevels, err = readIndex(d, func(r *WarehouseStockLevel) ID { return r.ID })
		return err
	},
	wire.LineItems: func(d *recordDecoder, s *Sideloads) (err error) {
		s.LineItems, err = readIndex(d, func(r *LineItem) ID { return r.ID })
		return err
	},
	wire.SalesOrderLineItems: func(d *recordDecoder, s *Sideloads) (err error) {
		s.SalesOrderLineItems, err = readIndex(d, func(r *LineItem) ID { return r.ID })
		return err
	},
	wire.Fulfillments: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Fulfillments, err = readIndex(d, func(r *Fulfillment) ID { return r.ID })
		return err
	},
	wire.Shipments: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Shipments, err = readIndex(d, func(r *Shipment) ID { return r.ID })
		return err
	},
	wire.SalesOrders: func(d *recordDecoder, s *Sideloads) (err error) {
		s.SalesOrders, err = readIndex(d, func(r *SalesOrder) ID { return r.ID })
		return err
	},
	wire.Addresses: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Addresses, err = readIndex(d, func(r *Address) ID { return r.ID })
		return err
	},
	wire.Contacts: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Contacts, err = readIndex(d, func(r *Contact) ID { return r.ID })
		return err
	},
	wire.PackingSlips: func(d *recordDecoder, s *Sideloads) (err error) {
		s.PackingSlips, err = readIndex(d, func(r *PackingSlip) ID { return r.ID })
		return err
	},
	wire.Packages: func(d *recordDecoder, s *Sideloads) (err error) {
		s.Packages, err = readIndex(d, func(r *Package) ID { return r.ID })
		return err
	},
	wire.PackageCarrierTypes: func(d *recordDecoder, s *Sideloads) (err error) {
		s.PackageCarrierTypes, err = readIndex(d, func(r *PackageCarrierType) ID { return r.ID })
		return err
	},
}

// readSideload reads the top-level key name of a read answer into s:
// kinds this package does not type are kept as they came, in Raw.
func (s *Sideloads) readSideload(d *recordDecoder, name string) error {
	read, ok := sideloadReaders[name]
	if !ok {
		raw, err := d.value()
		if err == nil && !json.Valid(raw) {
			err = errors.New("not valid JSON")
		}
		if err != nil {
			return fmt.Errorf("sideloaded %s: %w", name, err)
		}
		if s.Raw == nil {
			s.Raw = make(map[string]json.RawMessage)
		}
		s.Raw[name] = bytes.Clone(raw)
		return nil
	}
	if err := read(d, s); err != nil {
		return fmt.Errorf("sideloaded %s: %w", name, err)
	}
	return nil
}

// readIndex reads records sideloaded as an object keyed by id (the wire's
// form) or as an array. A record without its own id takes its key. The
// records are gathered first (in the arena's list, reused) and indexed
// in a map made to their number, which does not grow as they come.
func readIndex[T any](d *recordDecoder, id func(*T) ID) (map[ID]*T, error) {
	var list []indexed
	if d.arena != nil {
		list = d.arena.index[:0]
		defer func() { clear(list); d.arena.index = list[:0] }()
	}
	switch d.peek() {
	case '[':
		err := eachInArray(d, func(i int, r *T) error {
			k := id(r)
			if k == "" {
				return fmt.Errorf("record %d has no id", i)
			}
			list = append(list, indexed{k, unsafe.Pointer(r)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	case '{':
		err := eachKeyed(d, func(key []byte, r *T) {
			k := id(r)
			if k == "" {
				k = ID(view(key))
			}
			list = append(list, indexed{k, unsafe.Pointer(r)})
		})
		if err != nil {
			return nil, err
		}
	default:
		return nil, skipNull(d)
	}
	out := make(map[ID]*T, len(list))
	for _, x := range list {
		out[x.id] = (*T)(x.r)
	}
	return out, nil
}

// indexed is a record read for an index, before the index is made.
type indexed struct {
	id ID
	r  unsafe.Pointer
}

// eachInArray reads an array of records, calling fn with each that is not
// null and its place in the array.
func eachInArray[T any](d *recordDecoder, fn func(i int, r *T) error) error {
	i, l := 0, layoutOf[T]()
	return d.array(func() error {
		r, err := decodeRecord[T](d, l)
		if err != nil {
			return fmt.Errorf("record %d: %w", i, err)
		}
		i++
		if r == nil {
			return nil
		}
		return fn(i-1, r)
	})
}

// eachKeyed reads an object of records keyed by id, calling fn with each
// that is not null.
func eachKeyed[T any](d *recordDecoder, fn func(key []byte, r *T)) error {
	l := layoutOf[T]()
	return d.object(func(key []byte) error {
		r, err := decodeRecord[T](d, l)
		if err != nil {
			return fmt.Errorf("record %s: %w", key, err)
		}
		if r != nil {
			fn(key, r)
		}
		return nil
	})
}

// skipNull reads a null, which holds no records.
func skipNull(d *recordDecoder) error {
	raw, err := d.value()
	if err != nil {
		return err
	}
	if string(raw) != "null" {
		return fmt.Errorf("want records, got %.40s", raw)
	}
	return nil
}

// readList reads the requested resource: an array, or (tolerated) an
// object keyed by id, returned in ascending id order.
func readList[T any](d *recordDecoder) ([]*T, error) {
	switch d.peek() {
	case '[':
		var out []*T
		err := eachInArray(d, func(_ int, r *T) error {
			out = append(out, r)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	case '{':
		type keyed struct {
			key string
			r   *T
		}
		var all []keyed
		if err := eachKeyed(d, func(key []byte, r *T) { all = append(all, keyed{view(key), r}) }); err != nil {
			return nil, err
		}
		sort.SliceStable(all, func(i, j int) bool { return idLess(all[i].key, all[j].key) })
		out := make([]*T, len(all))
		for i, k := range all {
			out[i] = k.r
		}
		return out, nil
	}
	return nil, skipNull(d)
}

// idLess orders numeric ids numerically, others as text.
func idLess(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

// linked returns the records of m that links names under resource, in
// link order, each once; ids m lacks are skipped.
func linked[T any](links Links, resource string, m map[ID]*T) []*T {
	var out []*T
	seen := map[ID]bool{}
	for _, id := range links.IDs(resource) {
		if r := m[id]; r != nil && !seen[id] {
			seen[id] = true
			out = append(out, r)
		}
	}
	return out
}

// AddressesOf returns the sideloaded addresses a record links (a slip's,
// an order's, a fulfillment's), in link order; an address linked as both
// billing and shipping comes once.
func (s *Sideloads) AddressesOf(links Links) []*Address {
	return linked(links, wire.Addresses, s.Addresses)
}

// ContactsOf returns the sideloaded contacts a record links, in link order.
func (s *Sideloads) ContactsOf(links Links) []*Contact {
	return linked(links, wire.Contacts, s.Contacts)
}

// SalesOrdersOf returns the sideloaded sales orders a record links, in
// link order.
func (s *Sideloads) SalesOrdersOf(links Links) []*SalesOrder {
	return linked(links, wire.SalesOrders, s.SalesOrders)
}
