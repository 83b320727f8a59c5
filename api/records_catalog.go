package api

// Product is a read product record. [A.3]
type Product struct {
	ID          ID    `json:"id"`
	Name        Flex  `json:"name"`
	Description Flex  `json:"description"`
	Notes       Flex  `json:"notes"`
	LocalID     Flex  `json:"local_id"`
	Archived    Flex  `json:"archived"`
	Deleted     Flex  `json:"deleted"`
	CreatedAt   Flex  `json:"created_at"`
	UpdatedAt   Flex  `json:"updated_at"`
	Links       Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (p *Product) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, p)
}

// Variant is a read variant record. [A.3]
type Variant struct {
	ID                            ID    `json:"id"`
	SKU                           Flex  `json:"sku"`
	UPC                           Flex  `json:"upc"`
	Description                   Flex  `json:"description"`
	AutoDescription               Flex  `json:"auto_description"`
	AutoDescriptionWithOptionType Flex  `json:"auto_description_with_option_type"`
	Notes                         Flex  `json:"notes"`
	LocalID                       Flex  `json:"local_id"`
	Weight                        Flex  `json:"weight"`
	Cost                          Flex  `json:"cost"`
	AverageCost                   Flex  `json:"average_cost"`
	SupplierCost                  Flex  `json:"supplier_cost"`
	SupplierID                    Flex  `json:"supplier_id"`
	Stock                         Flex  `json:"stock"`
	CommittedStock                Flex  `json:"committed_stock"`
	Available                     Flex  `json:"available"`
	LowStockAlert                 Flex  `json:"low_stock_alert"`
	Location1                     Flex  `json:"location_1"`
	SortOrder                     Flex  `json:"sort_order"`
	Bundle                        Flex  `json:"bundle"`
	Component                     Flex  `json:"component"`
	Consignment                   Flex  `json:"consignment"`
	DropShippable                 Flex  `json:"drop_shippable"`
	TotalSold                     Flex  `json:"total_sold"`
	TotalRevenue                  Flex  `json:"total_revenue"`
	Deleted                       Flex  `json:"deleted"`
	CreatedAt                     Flex  `json:"created_at"`
	UpdatedAt                     Flex  `json:"updated_at"`
	Links                         Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (v *Variant) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, v)
}

// ProductID returns the id of the variant's product, or "".
func (v *Variant) ProductID() ID { return v.Links.First("Products") }

// Attribute is a product characteristic such as color or size. [A.3]
type Attribute struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	Order     Flex  `json:"order"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (a *Attribute) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, a)
}

// AttributeOption is one value of an attribute. The read form names the
// value `name`; a `value` key is accepted too.
type AttributeOption struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	Value     Flex  `json:"value"`
	Order     Flex  `json:"order"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (o *AttributeOption) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, o)
}

// Label returns the option's value: `name`, or `value` when name is empty.
func (o *AttributeOption) Label() string {
	if o.Name != "" {
		return string(o.Name)
	}
	return string(o.Value)
}

// PricingTier is a named price list. [A.3]
type PricingTier struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	Caption   Flex  `json:"caption"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (t *PricingTier) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, t)
}

// VariantPrice is the price of one variant in one pricing tier. [A.3]
type VariantPrice struct {
	ID        ID    `json:"id"`
	Price     Flex  `json:"price"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (p *VariantPrice) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, p)
}

// ProductTag is a label attached to products. [Spec]
type ProductTag struct {
	ID        ID    `json:"id"`
	Name      Flex  `json:"name"`
	Deleted   Flex  `json:"deleted"`
	CreatedAt Flex  `json:"created_at"`
	UpdatedAt Flex  `json:"updated_at"`
	Links     Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (t *ProductTag) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, t)
}

// ProductFile is a file (usually an image) attached to a product. [A.3]
type ProductFile struct {
	ID           ID    `json:"id"`
	FileName     Flex  `json:"file_name"`
	OrigFileName Flex  `json:"orig_file_name"`
	FileType     Flex  `json:"file_type"`
	Size         Flex  `json:"size"`
	CDNOriginal  Flex  `json:"cdn_original"`
	Deleted      Flex  `json:"deleted"`
	CreatedAt    Flex  `json:"created_at"`
	UpdatedAt    Flex  `json:"updated_at"`
	Links        Links `json:"links"`
	RawRecord
}

// UnmarshalJSON decodes the tolerant wire form and keeps the raw record.
func (f *ProductFile) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, f)
}
