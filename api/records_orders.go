package api

// SalesOrder is a read sales order record. [A.3]
type SalesOrder struct {
	ID                ID    `json:"id"`
	LocalID           Flex  `json:"local_id"`
	PONum             Flex  `json:"po_num"`
	OrderDate         Flex  `json:"order_date"`
	ShipDate          Flex  `json:"ship_date"`
	CurrencyISO       Flex  `json:"currency_iso"`
	Subtotal          Flex  `json:"subtotal"`
	Total             Flex  `json:"total"`
	TaxTotal          Flex  `json:"tax_total"`
	Discount          Flex  `json:"discount"`
	Notes             Flex  `json:"notes"`
	Archived          Flex  `json:"archived"`
	Complete          Flex  `json:"complete"`
	Void              Flex  `json:"void"`
	Draft             Flex  `json:"draft"`
	StatusPackingSlip Flex  `json:"status_packing_slip"`
	StatusPackage     Flex  `json:"status_package"`
	StatusPayment     Flex  `json:"status_payment"`
	StatusInvoice     Flex  `json:"status_invoice"`
	Deleted           Flex  `json:"deleted"`
	CreatedAt         Flex  `json:"created_at"`
	UpdatedAt         Flex  `json:"updated_at"`
	Links             Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (o *SalesOrder) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, o)
}

// Address is a postal address (billing, shipping). [A.3]
type Address struct {
	ID         ID    `json:"id"`
	Company    Flex  `json:"company"`
	Contact    Flex  `json:"contact"`
	Nickname   Flex  `json:"nickname"`
	Street1    Flex  `json:"street1"`
	Street2    Flex  `json:"street2"`
	City       Flex  `json:"city"`
	State      Flex  `json:"state"`
	Zip        Flex  `json:"zip"`
	Country    Flex  `json:"country"`
	CountryISO Flex  `json:"country_iso"`
	Notes      Flex  `json:"notes"`
	Deleted    Flex  `json:"deleted"`
	CreatedAt  Flex  `json:"created_at"`
	UpdatedAt  Flex  `json:"updated_at"`
	Links      Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (a *Address) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, a)
}

// Contact is a customer or supplier (resource Contacts), as sideloaded
// with sales orders, packing slips and variants. [A.3] Email and phone,
// when the account gives them, are in Field("email") and Field("phone").
// [B.6, assumed]
type Contact struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	LocalID   Flex  `json:"local_id"`
	Notes     Flex  `json:"notes"`
	Archived  Flex  `json:"archived"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (c *Contact) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, c)
}

// LineItem is a line of an order, packing slip or fulfillment: a variant
// and a quantity. [B.5] A packing slip's line items are its orders' lines
// as sold, with their unit price; a fulfillment's have a shipped quantity.
// [B.6, assumed]
type LineItem struct {
	ID              ID    `json:"id"`
	SKU             Flex  `json:"sku"`
	VariantID       ID    `json:"variant_id"`
	Quantity        Flex  `json:"quantity"`
	ShippedQuantity Flex  `json:"shipped_quantity"`
	Price           Flex  `json:"price"`
	Description     Flex  `json:"description"`
	Deleted         Flex  `json:"deleted"`
	CreatedAt       Flex  `json:"created_at"`
	UpdatedAt       Flex  `json:"updated_at"`
	Links           Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (l *LineItem) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, l)
}

// PackingSlip is a read packing slip record. [Spec]
type PackingSlip struct {
	ID              ID    `json:"id"`
	LocalID         Flex  `json:"local_id"`
	PackingSlipDate Flex  `json:"packing_slip_date"`
	ShipDate        Flex  `json:"ship_date"`
	Status          Flex  `json:"status"`
	Void            Flex  `json:"void"`
	Archived        Flex  `json:"archived"`
	Notes           Flex  `json:"notes"`
	Deleted         Flex  `json:"deleted"`
	CreatedAt       Flex  `json:"created_at"`
	UpdatedAt       Flex  `json:"updated_at"`
	Links           Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (p *PackingSlip) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, p)
}

// Package is a shipment record (resource Packages). [Spec]
type Package struct {
	ID             ID    `json:"id"`
	ShipDate       Flex  `json:"ship_date"`
	Notes          Flex  `json:"notes"`
	TrackingLink   Flex  `json:"tracking_link"`
	TrackingNumber Flex  `json:"tracking_number"`
	Cost           Flex  `json:"cost"`
	Delivered      Flex  `json:"delivered"`
	Deleted        Flex  `json:"deleted"`
	CreatedAt      Flex  `json:"created_at"`
	UpdatedAt      Flex  `json:"updated_at"`
	Links          Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (p *Package) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, p)
}

// PackageCarrierType is a carrier a shipment can name (USPS, UPS...). [A.3]
type PackageCarrierType struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (c *PackageCarrierType) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, c)
}

// Fulfillment is an open (or complete) fulfillment: what must be shipped
// and where. [B.5]
type Fulfillment struct {
	ID        ID    `json:"id"`
	Status    Flex  `json:"status"`
	Complete  Flex  `json:"complete"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (f *Fulfillment) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, f)
}

// Shipment is a shipment posted against a fulfillment, read back: its
// tracking, and links.LineItems [{id, quantity}] (the units of each line
// item it shipped), links.Fulfillments and links.Packages (the shipment
// record it became). [B.5, assumed]
type Shipment struct {
	ID             ID    `json:"id"`
	ShippedAt      Flex  `json:"shipped_at"`
	TrackingNumber Flex  `json:"tracking_number"`
	TrackingLink   Flex  `json:"tracking_link"`
	Carrier        Flex  `json:"carrier"`
	Cost           Flex  `json:"cost"`
	CreatedAt      Flex  `json:"created_at"`
	Links          Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (s *Shipment) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, s)
}
