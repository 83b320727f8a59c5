package mapping

// Role says what a row contributes.
type Role uint8

// Roles of a row.
const (
	// RoleBoth rows carry product fields and one variant (Shopify rows,
	// simple products).
	RoleBoth Role = iota
	// RoleProduct rows carry only product fields (a WooCommerce variable
	// product, a configurable product listing its children).
	RoleProduct
	// RoleVariant rows carry one variant of the product named by ParentRef
	// (or GroupKey when there is no parent).
	RoleVariant
)

var roleNames = []string{"both", "product", "variant"}

func (r Role) String() string { return roleNames[r] }

// Value is an optional value: Set is false when the source gave nothing
// (an empty cell), and true with S == "" when the mapping says an empty
// cell clears the target.
type Value struct {
	S   string
	Set bool
}

// Row is one evaluated source row. Program.Eval fills it, reusing its
// slices; strings may share memory with the source row, so a caller that
// keeps them past the next row must copy them (catalog.Grouper does).
type Row struct {
	// Skip is set when a skip rule matched; SkipReason says why. Nothing
	// else is filled then.
	Skip       bool
	SkipReason string

	Role Role
	// GroupKey is the row's product key (Handle; a parent's or a simple
	// product's SKU).
	GroupKey string
	// ParentRef is, on a variant row, the key of its product.
	ParentRef string
	// Alias is another key the row's product may be referred to by.
	Alias string
	// ChildKeys are, on a product row, the keys of its variant rows;
	// ChildColumn is where they were read.
	ChildKeys   []string
	ChildColumn string

	Product ProductFields // filled unless Role is RoleVariant
	Variant VariantFields // filled unless Role is RoleProduct
	// Options are the variant's attribute options (not on product rows).
	Options []Option
	// Declared are, on product rows, the attributes the product has and
	// the values each allows.
	Declared []Attribute
	// Tiers are the variant's pricing-tier prices that were given.
	Tiers []Tier

	// Alone is set on a product row of a mapping with join.alone, and on
	// a row whose group.role is "product_or_both": Variant, Options and
	// Tiers are then the product's one variant if no other row (of the
	// joined file, or a variant row) is one of its variants, and
	// AloneErrors that variant's invalid values, which count only then.
	Alone       bool
	AloneErrors RowErrors

	// Images are the images the row names (images:).
	Images []Image

	// Command is what the row asks of an import (command:), CommandNone
	// when it asks nothing. A variant row's is CommandNone or
	// CommandDelete; a joined file's rows give none.
	Command Command

	// Errors lists the invalid values of the row; Eval returns them too.
	Errors RowErrors
}

// Image is an image a row names: its source as given (a URL or a path),
// the column it was read from, its alt text and position (0: none), and
// whether it is the image of the row's variant. Err, when set, says why
// the row's value could not be read as images: the image fails, not the
// row.
type Image struct {
	Source   string
	Column   string
	Alt      string
	Position int
	Variant  bool
	Err      string
}

// ProductFields are the product values of a row.
type ProductFields struct {
	Name, Description, Notes Value
	Tags                     []string
	// TagsSet is true when the row gives tags (possibly none, to clear).
	TagsSet bool
}

// VariantFields are the variant values of a row.
type VariantFields struct {
	SKU string
	// Fields are the other given variant fields, by wire name.
	Fields []FieldValue
	// Stock is the opening stock.
	Stock Value
}

// FieldValue is one given variant field: its wire name ("weight") and its
// normalised value ("" clears, when the mapping allows it).
type FieldValue struct {
	Name, Value string
}

// Option is one attribute option of a variant row. Name is empty when the
// row names no attribute for the pair Slot (1-based), whose name is then
// given by another row of the product.
type Option struct {
	Slot   int
	Name   string
	Value  string
	Column string
}

// Attribute is an attribute declared on a product row, with the values it
// allows (none listed means any).
type Attribute struct {
	Name   string
	Values []string
	Column string
}

// Tier is a pricing-tier price: tier name and canonical decimal value.
type Tier struct {
	Name, Value string
}

func (r *Row) reset() {
	r.Skip, r.SkipReason = false, ""
	r.Role = RoleBoth
	r.GroupKey, r.ParentRef, r.Alias = "", "", ""
	r.ChildKeys, r.ChildColumn = r.ChildKeys[:0], ""
	r.Product = ProductFields{Tags: r.Product.Tags[:0]}
	r.Variant = VariantFields{Fields: r.Variant.Fields[:0]}
	r.Options = r.Options[:0]
	r.Declared = r.Declared[:0]
	r.Tiers = r.Tiers[:0]
	r.Errors = r.Errors[:0]
	r.Alone, r.AloneErrors = false, r.AloneErrors[:0]
	r.Images = r.Images[:0]
	r.Command = CommandNone
}
