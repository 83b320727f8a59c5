package api

import "lading/api/wire"

// AccountAddress is an address of the account; warehouses are the records
// with Warehouse "1". [A.7]
type AccountAddress struct {
	ID               ID    `json:"id"`
	Label            Flex  `json:"label"`
	Warehouse        Flex  `json:"warehouse"`
	DefaultWarehouse Flex  `json:"default_warehouse"`
	Billing          Flex  `json:"billing"`
	Shipping         Flex  `json:"shipping"`
	Company          Flex  `json:"company"`
	Contact          Flex  `json:"contact"`
	Street1          Flex  `json:"street1"`
	Street2          Flex  `json:"street2"`
	City             Flex  `json:"city"`
	State            Flex  `json:"state"`
	Zip              Flex  `json:"zip"`
	Country          Flex  `json:"country"`
	CountryISO       Flex  `json:"country_iso"`
	Phone            Flex  `json:"phone"`
	Deleted          Flex  `json:"deleted"`
	CreatedAt        Flex  `json:"created_at"`
	UpdatedAt        Flex  `json:"updated_at"`
	Links            Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (a *AccountAddress) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, a)
}

// IsWarehouse reports whether the address is a warehouse.
func (a *AccountAddress) IsWarehouse() bool { return a.Warehouse.Bool() }

// WarehouseStockLevel is the stock of one variant in one warehouse. [A.7]
type WarehouseStockLevel struct {
	ID               ID    `json:"id"`
	AccountAddressID ID    `json:"account_address_id"`
	Available        Flex  `json:"available"`
	Stock            Flex  `json:"stock"`
	LowStockAlert    Flex  `json:"low_stock_alert"`
	Deleted          Flex  `json:"deleted"`
	UpdatedAt        Flex  `json:"updated_at"`
	Links            Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (w *WarehouseStockLevel) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, w)
}

// WarehouseID returns the warehouse of the level: account_address_id, or
// the linked AccountAddresses id.
func (w *WarehouseStockLevel) WarehouseID() ID {
	if w.AccountAddressID != "" {
		return w.AccountAddressID
	}
	return w.Links.First("AccountAddresses")
}

// Available is a variant's available units in each warehouse, as the
// page's sideloaded WarehouseStockLevels give them (deleted levels and
// unreadable numbers left out). A warehouse with no level has none.
func (s *Sideloads) Available(v *Variant) map[ID]float64 {
	out := map[ID]float64{}
	for _, lid := range v.Links.IDs(wire.WarehouseStockLevels) {
		l := s.WarehouseStockLevels[lid]
		if l == nil || l.Deleted.Bool() {
			continue
		}
		if n, err := l.Available.Float(); err == nil {
			out[l.WarehouseID()] = n
		}
	}
	return out
}
