package api

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"lading/api/wire"
)

// OptionValue is one attribute/option pair of a variant, such as
// ("Color", "Black").
type OptionValue struct {
	AttributeID ID
	Attribute   string
	OptionID    ID
	Value       string
	// Order is the attribute's order on its product.
	Order int
}

// related returns the ids of resource that links holds; when it holds none
// (a record sent without those links), the ids of the records of m that
// link back to (back, self).
func related[T any](links Links, resource string, m map[ID]T, linksOf func(T) Links, back string, self ID) []ID {
	if ids := links.IDs(resource); len(ids) > 0 {
		return ids
	}
	var ids []ID
	for id, r := range m {
		if linksOf(r).Has(back, self) {
			ids = append(ids, id)
		}
	}
	return ids
}

// eachRelated calls fn with each id related gives, without a list of them
// when links holds them.
func eachRelated[T any](links Links, resource string, m map[ID]T, linksOf func(T) Links, back string, self ID, fn func(ID)) {
	if list := links.Of(resource); len(list) > 0 {
		for _, l := range list {
			fn(l.ID)
		}
		return
	}
	for _, id := range related(nil, resource, m, linksOf, back, self) {
		fn(id)
	}
}

// Options returns the attribute/option pairs of v, ordered by the
// attribute's order, then name. It follows v's links to AttributeOptions
// and each option's link to its attribute; where a link is missing it looks
// for records that link back.
func (s *Sideloads) Options(v *Variant) []OptionValue {
	return s.AppendOptions(nil, v)
}

// AppendOptions appends the options of v to dst, sorted as Options sorts
// them: Options without a new list a variant.
func (s *Sideloads) AppendOptions(dst []OptionValue, v *Variant) []OptionValue {
	n := len(dst)
	eachRelated(v.Links, wire.AttributeOptions, s.AttributeOptions, func(o *AttributeOption) Links { return o.Links }, wire.Variants, v.ID, func(oid ID) {
		if o := s.AttributeOptions[oid]; o != nil {
			dst = append(dst, s.optionValue(oid, o))
		}
	})
	slices.SortStableFunc(dst[n:], func(a, b OptionValue) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), strings.Compare(a.Attribute, b.Attribute))
	})
	return dst
}

// optionValue is option o (id oid) with its attribute.
func (s *Sideloads) optionValue(oid ID, o *AttributeOption) OptionValue {
	ov := OptionValue{OptionID: oid, Value: o.Label()}
	ov.AttributeID = o.Links.First(wire.Attributes)
	if ov.AttributeID == "" {
		for aid, a := range s.Attributes {
			if a.Links.Has(wire.AttributeOptions, oid) {
				ov.AttributeID = aid
				break
			}
		}
	}
	if a := s.Attributes[ov.AttributeID]; a != nil {
		ov.Attribute = string(a.Name)
		n, _ := a.Order.Int()
		ov.Order = int(n)
	}
	return ov
}

// TierPrice is a variant's price in one pricing tier.
type TierPrice struct {
	// Tier is the tier's name (its id when the tier is not sideloaded).
	Tier  string
	Price Flex
}

// Prices returns the prices of v keyed by pricing tier name (the tier id
// when the tier is not sideloaded).
func (s *Sideloads) Prices(v *Variant) map[string]Flex {
	list := s.AppendPrices(nil, v)
	out := make(map[string]Flex, len(list))
	for _, p := range list {
		out[p.Tier] = p.Price
	}
	return out
}

// AppendPrices appends the prices of v to dst, one a tier (the last the
// answer gives, as Prices keeps), in the order of v's links: Prices
// without a map a variant.
func (s *Sideloads) AppendPrices(dst []TierPrice, v *Variant) []TierPrice {
	n := len(dst)
	eachRelated(v.Links, wire.VariantPrices, s.VariantPrices, func(p *VariantPrice) Links { return p.Links }, wire.Variants, v.ID, func(id ID) {
		p := s.VariantPrices[id]
		if p == nil {
			return
		}
		tid := p.Links.First(wire.PricingTiers)
		key := string(tid)
		if t := s.PricingTiers[tid]; t != nil && t.Name != "" {
			key = string(t.Name)
		}
		if key == "" {
			return
		}
		for i := n; i < len(dst); i++ {
			if dst[i].Tier == key {
				dst[i].Price = p.Price
				return
			}
		}
		dst = append(dst, TierPrice{Tier: key, Price: p.Price})
	})
	return dst
}

// Tags returns the names of p's product tags, sorted.
func (s *Sideloads) Tags(p *Product) []string {
	ids := related(p.Links, wire.ProductTags, s.ProductTags, func(t *ProductTag) Links { return t.Links }, wire.Products, p.ID)
	var out []string
	for _, id := range ids {
		if t := s.ProductTags[id]; t != nil {
			out = append(out, string(t.Name))
		}
	}
	sort.Strings(out)
	return out
}

// Product returns the sideloaded product of v, or nil.
func (s *Sideloads) Product(v *Variant) *Product {
	return s.Products[v.ProductID()]
}

// VariantsOf returns the sideloaded variants of p, in p's link order.
func (s *Sideloads) VariantsOf(p *Product) []*Variant {
	var out []*Variant
	for _, id := range p.Links.IDs(wire.Variants) {
		if v := s.Variants[id]; v != nil {
			out = append(out, v)
		}
	}
	return out
}

// StockIn returns v's stock level in the warehouse (an AccountAddresses
// id), if the answer sideloaded it.
func (s *Sideloads) StockIn(v *Variant, warehouse ID) (*WarehouseStockLevel, bool) {
	for _, id := range v.Links.IDs(wire.WarehouseStockLevels) {
		if w := s.WarehouseStockLevels[id]; w != nil && w.WarehouseID() == warehouse {
			return w, true
		}
	}
	for _, w := range s.WarehouseStockLevels {
		if w.Links.Has(wire.Variants, v.ID) && w.WarehouseID() == warehouse {
			return w, true
		}
	}
	return nil, false
}

// Warehouses returns the sideloaded account addresses that are warehouses,
// in id order.
func (s *Sideloads) Warehouses() []*AccountAddress {
	var out []*AccountAddress
	for _, a := range s.AccountAddresses {
		if a.IsWarehouse() {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return idLess(string(out[i].ID), string(out[j].ID)) })
	return out
}

// LineItemsOf returns the sideloaded line items a record links to (a
// fulfillment's or packing slip's links), in link order. A link's quantity
// is kept on the link; the line item carries its own.
func (s *Sideloads) LineItemsOf(links Links) []*LineItem {
	var out []*LineItem
	for _, id := range links.IDs(wire.LineItems) {
		if li := s.LineItems[id]; li != nil {
			out = append(out, li)
		}
	}
	return out
}
