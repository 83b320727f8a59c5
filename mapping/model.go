package mapping

// Mapping is a parsed mapping file: how the rows of a spreadsheet become
// products, variants, attribute options and pricing-tier prices, or stock
// levels. Build one with Parse or Load, then Compile it (CompileStock for
// its stock section) against a header to evaluate rows.
type Mapping struct {
	// File is the name the mapping was parsed under, used in messages.
	File string

	Source  Source
	Group   Group
	Product ProductSpec
	Variant VariantSpec
	Options OptionsSpec
	Tiers   TiersSpec
	// Command is what each row asks of an import (see Command); nil
	// leaves every row to the import's mode.
	Command *ValueSpec
	// Skip rules are tried in order on each row of the main file; the first
	// that matches skips the row with its reason.
	Skip []SkipRule
	// Join, when set, reads variants from a second file; see Join.
	Join *Join
	// Images are where the rows name the products' images (ImageSpec).
	Images []ImageSpec
	// Tables are the lookup tables of lookup(table, key).
	Tables map[string]map[string]string
	// Stock, when set, maps rows to stock levels (CompileStock). A
	// mapping may have a stock section and no catalog part.
	Stock *StockSpec
	// Shipments, when set, maps rows to shipped lines (CompileShipments).
	Shipments *ShipmentSpec
	// Slips, when set, maps rows to packing slips and their shipments
	// (CompileSlips).
	Slips *SlipSpec
}

// StockSpec maps the rows of a stock file (a warehouse system's inventory
// export) to stock levels: a SKU, a quantity of units, and optionally the
// warehouse the level is for. The main file's source settings and skip
// rules apply.
type StockSpec struct {
	SKU, Quantity, Warehouse *ValueSpec // Warehouse may be nil
	// Pos is where the stock section is in the mapping file.
	Pos Pos
}

// ImageSpec is one place the rows name images: Source gives one image or
// a list of them (a column split on its separator, default ",", or an
// expression giving a list), each an http or https URL or a path under
// the import's images folder; Alt and Position give their alt text and
// position where the layout has them. Variant says they are the image
// of the row's variant (Shopify's Variant Image): such an entry is read
// on variant rows, from the joined file when the mapping joins one;
// the others on every row of the main file. Every image is uploaded as a
// file of the row's product.
type ImageSpec struct {
	Source   *ValueSpec
	Alt      *ValueSpec // may be nil
	Position *ValueSpec // may be nil
	Variant  bool
	Pos      Pos
}

// Source describes how to read the input file. Zero values mean "detect"
// or "default" as documented on each field.
type Source struct {
	// Format is "csv" or "xlsx"; "" means from the file's extension.
	Format string
	// Sheet is the XLSX sheet to read; "" means the first visible one.
	Sheet string
	// HeaderRow is the 1-based row holding the column names; 0 means 1.
	HeaderRow int
	// Delimiter is the CSV field separator; 0 means detect among , ; tab |.
	Delimiter rune
	// Encoding is "", "utf-8", "utf-16", "utf-16le", "utf-16be",
	// "windows-1252" or "iso-8859-1"; "" means UTF-8, with or without a
	// byte-order mark (the names source.Options takes).
	Encoding string
	// Decimal is the decimal separator of numbers: "." (default) or ",".
	// An XLSX file's numbers are read written with it, as a spreadsheet
	// program set for it shows them.
	Decimal string
	// Thousands is the separator that groups thousands: ",", ".", " " or
	// "'"; "." makes "," the decimal separator when Decimal is not set.
	// Setting either says how "1.000" reads: a count of units written so
	// is ambiguous otherwise, and refused.
	Thousands string
	// AllowShortRows lets CSV rows have fewer cells than the header (the
	// missing ones are empty), for exports that drop trailing empty cells.
	// Without it such a row is an error on its line, since a cell count
	// that differs from the header's usually means a cell was split or lost.
	AllowShortRows bool
	// DateFormats are the layouts dates are read with, written with the
	// tokens YYYY YY MM M DD D HH mm ss (for example "DD/MM/YYYY").
	// YYYY-MM-DD is always accepted.
	DateFormats []string
}

// Group says how rows become products.
type Group struct {
	// By is "key" (rows sharing Key form a product, like Shopify's Handle),
	// "parent" (variant rows name their product's key in Parent, like
	// WooCommerce), or "children" (a product row lists its variants' keys
	// in Children).
	By string
	// Key is the product key of a row (for "parent" and "children": the
	// row's own key, usually its SKU).
	Key *ValueSpec
	// Parent is, on a variant row, the key of its product ("parent" only).
	Parent *ValueSpec
	// Alias is another key a product row may be referred to by, for
	// example "id:" + ID for WooCommerce parents given by id.
	Alias *ValueSpec
	// Children lists, on a product row, the keys of its variant rows
	// ("children" only); a list value.
	Children *ValueSpec
	// Role says what a row is: "product", "variant", "both", or
	// "product_or_both" (a product row that is also the product's one
	// variant when no other row gives it one). Default: "both" for "key"
	// ("variant" for a row that takes its key from the row above, with
	// Key.FillDown); for "parent" a row with a parent is a variant; for
	// "children" a row listing children is a product.
	Role *ValueSpec
}

// Group modes.
const (
	ByKey      = "key"
	ByParent   = "parent"
	ByChildren = "children"
)

// ProductSpec maps the product fields.
type ProductSpec struct {
	Name, Description, Notes *ValueSpec
	// Tags is a list value: a column split on its separator (default ","),
	// or an expression giving a list.
	Tags *ValueSpec
}

// VariantSpec maps the variant fields.
type VariantSpec struct {
	SKU *ValueSpec
	// Stock is the opening stock of a created variant.
	Stock *ValueSpec
	// Fields are the other writable fields (weight, cost, upc, ...), in
	// the order the mapping gives them.
	Fields []*ValueSpec
}

// OptionsSpec maps attribute options. All three forms may be combined.
type OptionsSpec struct {
	// Pairs are name/value column pairs (Option1 Name / Option1 Value).
	// A pair whose name cell is empty takes the name given by another row
	// of the same product in the same pair (Shopify gives names on a
	// product's first row only).
	Pairs []OptionPair
	// Columns are fixed columns whose header (or given name) is the
	// attribute name, like a "Color" column.
	Columns []OptionColumn
	// List is a cell holding "name=value" items separated by ListSeparator.
	List          *ValueSpec
	ListSeparator string
	// Ignore lists values that mean "no option" (Shopify's "Default Title").
	Ignore []string
	// ValuesSeparator splits, on product rows, the list of values an
	// attribute allows (WooCommerce's "Blue, Green, Red"); default ",".
	ValuesSeparator string
	// When, if set, is a condition; options are read only on rows where it
	// holds.
	When *ValueSpec
}

// OptionPair is one name/value column pair.
type OptionPair struct {
	Name, Value *ValueSpec
	Pos         Pos
}

// OptionColumn is a fixed attribute: Name is the attribute name.
type OptionColumn struct {
	Name  string
	Value *ValueSpec
	Pos   Pos
}

// TiersSpec maps pricing tiers: explicitly listed tiers, and every column
// whose header starts with Prefix (the rest of the header names the tier).
type TiersSpec struct {
	Columns []TierSpec
	Prefix  string
	// PrefixPos is where the prefix is given, for messages.
	PrefixPos Pos
}

// TierSpec is one explicitly mapped pricing tier.
type TierSpec struct {
	Name  string
	Value *ValueSpec
	Pos   Pos
}

// SkipRule skips the rows where When holds. Reason may name columns in
// braces, like "{Type} products are not imported"; it reaches the results.
type SkipRule struct {
	When   string
	Reason string
	Pos    Pos
}

// Join reads variants from a second file whose Key column holds the key of
// their product in the main file. With a join, the variant, options and
// tiers sections read the joined file (Program.CompileJoin); product and
// group read the main file, whose rows are then all product rows.
type Join struct {
	File   string
	Source Source
	Key    *ValueSpec
	Skip   []SkipRule
	// Alone, when set, gives a product that no joined row names one
	// variant, from its own row of the main file; see Alone.
	Alone *Alone
	Pos   Pos
}

// Kind is how a value is checked and normalised.
type Kind uint8

// Kinds of values.
const (
	KindText    Kind = iota
	KindNumber       // canonical decimal string: "1,50" with decimal "," → "1.5"
	KindInteger      // whole number
	KindDate         // YYYY-MM-DD
	KindList         // list of strings (tags, children)
)

var kindNames = []string{"text", "number", "integer", "date", "list"}

func (k Kind) String() string { return kindNames[k] }

// ValueSpec says where one target's value comes from: a column, a
// constant, or an expression over the row (with the column's cell as
// `value` when both are given).
type ValueSpec struct {
	// Target names what the value is for, like "variant.weight".
	Target string
	// Name is the wire field name for variant fields ("weight").
	Name string

	Column   string
	Const    string
	HasConst bool
	Expr     string

	Kind Kind
	// Required makes an empty value an error.
	Required bool
	// Optional lets the column be missing from the file: the target is
	// then not mapped (for columns that only some exports have).
	Optional bool
	// ClearWhenEmpty makes an empty cell clear the target; otherwise an
	// empty cell leaves it as it is.
	ClearWhenEmpty bool
	// Default is used when the value is empty.
	Default    string
	HasDefault bool
	// Split separates list values (tags, children); default ",".
	Split string
	// FillDown, on group.key only, gives a row whose key is empty the key
	// of the nearest row above it that gives one: the row belongs to that
	// product (exports that write a product's key on its first row only).
	FillDown bool
	// NotNegative is set for prices, costs, weights and opening stock: a
	// negative number is an error of the row, not something to send.
	NotNegative bool

	Pos Pos
}

// Describe names the source of the value for messages: its column, or its
// expression.
func (s *ValueSpec) Describe() string {
	switch {
	case s == nil:
		return ""
	case s.Column != "":
		return s.Column
	case s.Expr != "":
		return "expr " + s.Expr
	}
	return "constant"
}

// Pos is a 1-based line and column in the mapping file.
type Pos struct{ Line, Column int }
