package api

import (
	"bytes"
	"fmt"
	json "github.com/goccy/go-json"
	"sort"
	"strconv"

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
}

// decodeSideload decodes one top-level key of a read answer into s.
func (s *Sideloads) decodeSideload(name string, raw json.RawMessage) error {
	var err error
	switch name {
	case wire.Products:
		s.Products, err = decodeIndex(raw, func(r *Product) ID { return r.ID })
	case wire.Variants:
		s.Variants, err = decodeIndex(raw, func(r *Variant) ID { return r.ID })
	case wire.Attributes:
		s.Attributes, err = decodeIndex(raw, func(r *Attribute) ID { return r.ID })
	case wire.AttributeOptions:
		s.AttributeOptions, err = decodeIndex(raw, func(r *AttributeOption) ID { return r.ID })
	case wire.PricingTiers:
		s.PricingTiers, err = decodeIndex(raw, func(r *PricingTier) ID { return r.ID })
	case wire.VariantPrices:
		s.VariantPrices, err = decodeIndex(raw, func(r *VariantPrice) ID { return r.ID })
	case wire.ProductTags:
		s.ProductTags, err = decodeIndex(raw, func(r *ProductTag) ID { return r.ID })
	case wire.ProductFiles:
		s.ProductFiles, err = decodeIndex(raw, func(r *ProductFile) ID { return r.ID })
	case wire.AccountAddresses:
		s.AccountAddresses, err = decodeIndex(raw, func(r *AccountAddress) ID { return r.ID })
	case wire.WarehouseStockLevels:
		s.WarehouseStockLevels, err = decodeIndex(raw, func(r *WarehouseStockLevel) ID { return r.ID })
	case wire.LineItems:
		s.LineItems, err = decodeIndex(raw, func(r *LineItem) ID { return r.ID })
	case wire.SalesOrderLineItems:
		s.SalesOrderLineItems, err = decodeIndex(raw, func(r *LineItem) ID { return r.ID })
	case wire.Fulfillments:
		s.Fulfillments, err = decodeIndex(raw, func(r *Fulfillment) ID { return r.ID })
	case wire.Shipments:
		s.Shipments, err = decodeIndex(raw, func(r *Shipment) ID { return r.ID })
	case wire.SalesOrders:
		s.SalesOrders, err = decodeIndex(raw, func(r *SalesOrder) ID { return r.ID })
	case wire.Addresses:
		s.Addresses, err = decodeIndex(raw, func(r *Address) ID { return r.ID })
	case wire.Contacts:
		s.Contacts, err = decodeIndex(raw, func(r *Contact) ID { return r.ID })
	case wire.PackingSlips:
		s.PackingSlips, err = decodeIndex(raw, func(r *PackingSlip) ID { return r.ID })
	case wire.Packages:
		s.Packages, err = decodeIndex(raw, func(r *Package) ID { return r.ID })
	case wire.PackageCarrierTypes:
		s.PackageCarrierTypes, err = decodeIndex(raw, func(r *PackageCarrierType) ID { return r.ID })
	default:
		if s.Raw == nil {
			s.Raw = make(map[string]json.RawMessage)
		}
		s.Raw[name] = raw
	}
	if err != nil {
		return fmt.Errorf("sideloaded %s: %w", name, err)
	}
	return nil
}

// decodeIndex reads records sideloaded as an object keyed by id (the wire's
// form) or as an array. A record without its own id takes its key.
func decodeIndex[T any](raw json.RawMessage, id func(*T) ID) (map[ID]*T, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '[' {
		var list []*T
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		out := make(map[ID]*T, len(list))
		for i, r := range list {
			if r == nil {
				continue
			}
			k := id(r)
			if k == "" {
				return nil, fmt.Errorf("record %d has no id", i)
			}
			out[k] = r
		}
		return out, nil
	}
	var byKey map[string]*T
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil, err
	}
	out := make(map[ID]*T, len(byKey))
	for k, r := range byKey {
		if r == nil {
			continue
		}
		if own := id(r); own != "" {
			out[own] = r
		} else {
			out[ID(k)] = r
		}
	}
	return out, nil
}

// decodeList reads the requested resource: an array, or (tolerated) an
// object keyed by id, returned in ascending id order.
func decodeList[T any](raw json.RawMessage) ([]*T, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		var list []*T
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		kept := list[:0]
		for _, r := range list {
			if r != nil {
				kept = append(kept, r)
			}
		}
		return kept, nil
	}
	var byKey map[string]*T
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return idLess(keys[i], keys[j]) })
	out := make([]*T, 0, len(keys))
	for _, k := range keys {
		if r := byKey[k]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
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
