// Package wire is the single home of every fact about the integrations
// interface's wire format that lading depends on: paths, envelope keys,
// resource names, filter and sort rules, limits, and the contract this
// project assumes where the specification is silent.
//
// Both the client (package api) and the emulator (package sandbox) import it,
// so that when the real service turns out to differ, one edit here moves both.
//
// Sources, as in ../shared/spec/wire-format.md:
//   - [Spec]: integrations-service.md.
//   - [A.n]:  evidence from recorded responses (wire-format.md section A).
//   - [B.n]:  assumed contract (wire-format.md section B), or an assumption
//     of this project marked [lading] with its reason.
package wire

import "strings"

// Resource names, as they appear in paths, envelopes and sideloads. [Spec]
const (
	PackingSlips         = "PackingSlips"
	Packages             = "Packages"
	Products             = "Products"
	Variants             = "Variants"
	ProductFiles         = "ProductFiles"
	ProductTags          = "ProductTags"
	Attributes           = "Attributes"
	AttributeOptions     = "AttributeOptions"
	PricingTiers         = "PricingTiers"
	VariantPrices        = "VariantPrices"
	AccountAddresses     = "AccountAddresses"
	WarehouseStockLevels = "WarehouseStockLevels"
	ReconcileInventory   = "ReconcileInventory"
	Addresses            = "Addresses"
	Contacts             = "Contacts"
	LineItems            = "LineItems"
	SalesOrders          = "SalesOrders"
	PackageCarrierTypes  = "PackageCarrierTypes"
	Fulfillments         = "Fulfillments"        // [B.5] envelope key
	Shipments            = "Shipments"           // [B.5] envelope key
	SalesOrderLineItems  = "SalesOrderLineItems" // [A.3] an order's lines as sold
)

// Envelope keys and actions. [Spec]
const (
	KeyAction     = "action"
	KeyMeta       = "meta"
	KeyPageSize   = "page_size"
	KeyPageNum    = "page_num"
	KeySort       = "sort"
	KeyFilter     = "filter"
	KeyBulkAction = "bulk_action"
	KeyOperation  = "operation"
	KeyLinks      = "links"
	FieldID       = "id"
	ActionRead    = "read"
	ActionWrite   = "write"
	SortAsc       = "asc"
	SortDesc      = "desc"
	CondAnd       = "and"
	CondOr        = "or"
)

// HTTP headers. [A.2]
const (
	HeaderToken       = "access_token"
	ContentTypeJSON   = "application/json;charset=UTF-8"
	HeaderRetryAfter  = "Retry-After"
	ThrottleText      = "Throttling due to too many requests" // [A.10] gateway's 403 body
	MultipartJSONPart = "json"                                // [Spec] product file upload
	MultipartFilePart = "file"
)

// OAuth paths relative to the base URL. [Spec]
const (
	AuthorizePath = "/authorize"
	TokenPath     = "/oauth/token"
)

// Limits. [A.3] default page size, [B.3] maxima, [Spec] conditionals.
const (
	DefaultPageSize = 15
	MaxPageSize     = 250
	MaxWriteRecords = 100
	MaxConditionals = 2
	// MaxProductFileBytes is the largest product file the sandbox stores,
	// and the most an import's --max-image-size allows. [lading] The
	// service's limit is not shown; 20 MiB holds the largest images the
	// platforms lading reads export (Shopify takes at most 20 MB).
	MaxProductFileBytes = 20 << 20
)

// Operations allowed in a filter condition; "=" is the default. [A.8]
var Operations = []string{"=", ">=", "<=", ">", "<", "!="}

// Filter statement shape. [A.8] [lading] The `filter` object holds one or two
// conditionals, the keys CondAnd and CondOr, each an array of conditions
// {"<attribute>": "<value>", "operation": "<op>"} (operation omitted means
// "="). Conditions do not nest. With both keys the statement means
// (every condition of "and") AND (at least one condition of "or"):
//
//	{"and":[{"archived":"0"}],"or":[{"sku":"A"},{"sku":"B"}]}
//
// Condition values are sent as strings; dates as FilterDateLayout.
const FilterDateLayout = "2006-01-02"

// The timestamps every record carries, filterable at a day's grain (with
// FilterDateLayout). [Spec] An incremental import reads only what
// changed in an account since a day by them, and assumes of the service,
// [lading] where the specification is silent:
//   - a record's UpdatedAt moves whenever it changes, and a variant's
//     whenever its options or prices do (they are written through it);
//     a product's whenever its tags are given or taken, not when a tag is
//     renamed (a tag's own UpdatedAt then moves past its CreatedAt), nor
//     when a file is given it (the file's own is listed);
//   - a record deleted is no longer listed, and no other record's
//     UpdatedAt moves for it (it is found by counting by CreatedAt);
//   - a day in a filter is a day of the service's own time zone, which
//     may be a day from UTC's either way.
const (
	CreatedAt = "created_at"
	UpdatedAt = "updated_at"
)

// TimeLayout is a date-time in a write: ISO 8601 with a numeric offset,
// YYYY-MM-DDTHH:MM:SS+0000. [Spec]
const TimeLayout = "2006-01-02T15:04:05-0700"

// Bulk actions on Products: {"action":"write","bulk_action":{...},"Products":[{id}...]}.
// [Spec] "Bulk archive products" {archive: 1}; "Bulk tag products"
// {Tags: [{id, assign: 1}]}; [lading] assign 0 takes a tag off.
const (
	BulkArchive = "archive"
	BulkTags    = "Tags"
	BulkAssign  = "assign"
)

// ReconcileInventory change that sets available units in a warehouse. [A.7]
const ChangeSetAvailable = "set_available"

// Path returns the versioned path of a resource: version is "v1" or "v2";
// detail appends "/detail".
func Path(version, resource string, detail bool) string {
	p := "/" + version + "/" + resource
	if detail {
		p += "/detail"
	}
	return p
}

// ListPath is where a listing of resource is read. [Spec] "/v2/{Resource}"
func ListPath(resource string) string {
	if resource == Fulfillments {
		return "/v2/fulfillments" // [B.5]
	}
	return Path("v2", resource, false)
}

// DetailPath is where records of resource are read by id. [Spec] table
// "Read detail": PackingSlips on the listing path, ProductTags on v1.
func DetailPath(resource string) string {
	switch resource {
	case PackingSlips:
		return Path("v2", resource, false)
	case ProductTags:
		return Path("v1", resource, true)
	case Fulfillments:
		return "/v2/fulfillments/detail" // [B.5]
	}
	return Path("v2", resource, true)
}

// WritePath is where records of resource are written. [Spec] table "Write
// operations"; fulfillments [B.5].
func WritePath(resource string) string {
	switch resource {
	case PackingSlips, Packages, ProductFiles:
		return Path("v1", resource, false)
	case Fulfillments:
		return "/v1/fulfillments"
	case Shipments:
		return "/v1/fulfillments/shipments"
	}
	return Path("v1", resource, true) // Products, Variants, ProductTags
}

// Listable are the resources with a v2 listing. [Spec]
var Listable = []string{PackingSlips, Products, Variants, ProductFiles, ProductTags, Fulfillments}

// Filterable lists, per resource, the attributes a filter may name. [Spec]
// ProductFiles, ProductTags and Fulfillments are not shown: [lading] assumes
// id, created_at, updated_at (and name for tags, status for fulfillments).
var Filterable = map[string][]string{
	PackingSlips: {"created_at", "id", "local_id", "packing_slip_date", "ship_date", "status", "updated_at", "void"},
	Products:     {"id", "archived", "created_at", "local_id", "name", "notes", "updated_at"},
	Variants: {"auto_description", "auto_description_with_option_type", "available", "average_cost", "bundle",
		"component", "consignment", "created_at", "description", "id", "local_id", "location_1", "low_stock_alert",
		"notes", "sku", "sort_order", "stock", "supplier_cost", "supplier_id", "upc", "updated_at", "weight"},
	ProductFiles: {"id", "created_at", "updated_at"},
	ProductTags:  {"id", "name", "created_at", "updated_at"},
	Fulfillments: {"id", "status", "created_at", "updated_at"},
}

// Sortable lists, per resource, the attributes a sort may name. [Spec] for
// PackingSlips; [lading] assumes the filterable set elsewhere ("not shown").
var Sortable = map[string][]string{
	PackingSlips: Filterable[PackingSlips],
	Products:     Filterable[Products],
	Variants:     Filterable[Variants],
	ProductFiles: Filterable[ProductFiles],
	ProductTags:  Filterable[ProductTags],
	Fulfillments: Filterable[Fulfillments],
}

// Sideloads lists, per listed resource, the related records a read returns
// beside the resource array, as objects keyed by id. [A.3] for Variants
// (plus ProductTags, so one variant read carries its product's tag names);
// [lading] for the others; PackingSlips [B.6, assumed] and the Variants
// of Fulfillments [B.5, assumed] below. The importer reads whole catalogs
// as the Products listing on the strength of its Variants, and checks
// each page carries the variants its products link.
var Sideloads = map[string][]string{
	Variants:     {Products, Attributes, AttributeOptions, PricingTiers, VariantPrices, ProductTags, AccountAddresses, WarehouseStockLevels},
	Products:     {Variants, Attributes, AttributeOptions, PricingTiers, VariantPrices, ProductTags},
	PackingSlips: {LineItems, SalesOrders, Addresses, Contacts, Packages, PackageCarrierTypes},
	ProductFiles: {Products},
	// Fulfillment reads also sideload the Variants their line items name,
	// and the component variants of any bundle among them, so that a
	// picking list has each line's location_1 and can expand a bundle's
	// line without another read. [B.5, assumed] The service splits bundles
	// into components when the account's "Split Bundles into Components"
	// option is on; a line naming a bundle is what an account without it
	// shows.
	//
	// They also sideload the Shipments posted against them (see
	// ShipmentFields) and the Packages of their sales orders, so that a
	// push tells from one read what a fulfillment's order already
	// shipped, under which tracking numbers. [B.5, assumed]
	Fulfillments: {LineItems, SalesOrders, Addresses, Contacts, Variants, Shipments, Packages},
	// A sales order read by id sideloads what it holds. [B.8, assumed]
	SalesOrders: {SalesOrderLineItems, Fulfillments, LineItems, Shipments, PackingSlips, Packages, Variants},
}

// Meta is the paging block of every read response; every value is a decimal
// string on the wire. [A.3] [A.4]
type Meta struct {
	CurrentPage string `json:"current_page"`
	LastPage    string `json:"last_page"`
	PerPage     string `json:"per_page"`
	Total       string `json:"total"`
	From        string `json:"from"`
	To          string `json:"to"`
}

// ErrorBody is the body of every non-2xx answer and the `error` of a failed
// record in a write answer. [B.1]
type ErrorBody struct {
	Message string        `json:"message"`
	Errors  []RecordError `json:"errors,omitempty"`
}

// RecordError names the failing record of a write array by its index. [B.1]
// A record refused on FieldID names an id the account does not hold (a
// deleted record, or another account's). [B.1, assumed]
type RecordError struct {
	Index   int    `json:"index"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

// WriteResult is one entry of a write answer, in request order: an id on
// success or an error on failure. A write array is applied record by
// record; the answer is 200 if any record succeeded, else 400. [A.6] [B.2]
type WriteResult struct {
	ID    string       `json:"id,omitempty"`
	Error *RecordError `json:"error,omitempty"`
}

// TokenResponse is the answer of the token endpoint. [B.4]
type TokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	Scope       string `json:"scope"`
}

// IsThrottleBody reports whether a 403 body is the gateway's throttling
// answer rather than a permission error. [A.10]
func IsThrottleBody(body []byte) bool {
	return strings.Contains(strings.ToLower(string(body)), strings.ToLower(ThrottleText))
}

// Product and variant write semantics that the specification leaves open.
// [lading] Each is honoured by the sandbox and relied on by the importer.
//
//   - A variant record inside a product create may carry its own
//     links.PricingTiers [{id or name, value}]; it overrides, for that
//     variant, the product-level links.PricingTiers, which otherwise applies
//     to every variant the write creates.
//   - In a product create, a variant's links.AttributeOptions[i] without
//     links.Attributes belongs to the product's links.Attributes[i]; with
//     links.Attributes [{name}] it belongs to the attribute of that name
//     (created if new).
//   - A variant edit (record with id) may carry sku, description, notes,
//     weight, cost, upc, location_1, low_stock_alert, supplier_cost and
//     links.PricingTiers [{id or name, value}] to set that variant's price
//     in the tier; an empty links array leaves the relation unchanged.
//   - A product edit may carry name, description, notes and
//     links.ProductTags; tags given replace the product's tag set.
//   - `quantity` on a created variant is its opening stock in the token's
//     warehouse; afterwards stock changes only through ReconcileInventory.
//   - Variants read back carry `cost` as written (besides average_cost).

// Fulfillment fields [B.5]; LineItem fields of a fulfillment.
var (
	FulfillmentFields = []string{"id", "status", "complete", "created_at", "updated_at"}
	LineItemFields    = []string{"id", "sku", "variant_id", "quantity", "shipped_quantity"}
	// ShipmentWriteFields are the fields of a posted shipment: the wire
	// format's [B.5] and `cost`, which [lading] assumes a posted shipment
	// takes as the shipment (Packages) record it becomes does [Spec]. A
	// posted shipment is recorded as a Packages record of a packing slip
	// of the order [lading, assumed]: that is how the sandbox keeps it.
	ShipmentWriteFields = []string{"shipped_at", "tracking_number", "tracking_link", "carrier", "cost"}
)

// Fulfillment shipments read back. [B.5, assumed] The specification says
// shipments are posted per line item and record "what has shipped,
// including tracking information", and shows no read of them. A push must
// know what a fulfillment already shipped, and under which tracking
// number, to post a parcel once whatever its local state holds; so this
// project assumes:
//
//   - A fulfillment read (listing and detail) links the shipments posted
//     against it, links.Shipments [{id}], and sideloads them as Shipments
//     (objects keyed by id): ShipmentFields, and links.Fulfillments [{id}],
//     links.LineItems [{id, quantity}] (the units of each line item the
//     shipment shipped) and links.Packages [{id}] (the shipment (Packages)
//     record it was recorded as; see ShipmentWriteFields).
//   - A fulfillment read also sideloads the live Packages of its sales
//     orders (a sales order links its Packages and PackingSlips [A.3], as
//     in sale_orders_sale_order_533943058.json), with their
//     links.PackingSlips: the parcels the order holds, whichever way they
//     were recorded.
var ShipmentFields = []string{"id", "shipped_at", "tracking_number", "tracking_link", "carrier", "cost", "created_at"}

// Sales orders read by id. [B.8, assumed] The specification reads packing
// slips but not the sales orders they pack; a recorded answer of the
// service shows a sales order read (sale_orders_sale_order_533943058.json
// [A.3]): the order, links.SalesOrderLineItems, links.PackingSlips,
// links.Packages, and every linked record sideloaded. A slips push must
// check a slip against its order's lines and the slips already packed, in
// one read per 250 orders, so this project assumes:
//
//   - POST {base_url}/v2/SalesOrders/detail {"action":"read","SalesOrders":[{id}]}
//     answers as other detail reads (an id of no order of the account is
//     left out; none found is a 404).
//   - Each order carries SalesOrderFields and links SalesOrderLineItems,
//     Fulfillments, PackingSlips and Packages (the live ones: not deleted;
//     void slips are linked, and marked void).
//   - It sideloads SalesOrderLineItems (the order's lines as sold:
//     SlipLineItemFields), the Fulfillments with their LineItems
//     (LineItemFields) and Shipments (as above), the PackingSlips with
//     links.LineItems [{id, quantity}] and links.Packages, the Packages, and
//     the Variants the lines name (a bundle with its BundleComponents).
//
// A packing slip packs the lines of its sales order [lading, assumed]: a
// slip write naming an order the account does not have, or a line item
// that is neither a line of its order nor a line item of one of the
// order's fulfillments, is refused on that link ([B.1], field
// links.SalesOrders[i].id or links.LineItems[i].id); so is one packing
// more units than the order has left to pack. Units are counted per
// variant, a bundle as its components: the order's lines hold what it has
// to pack; its live slips that are not void hold what is packed.
var SalesOrderLinks = []string{SalesOrderLineItems, Fulfillments, PackingSlips, Packages}

// SandboxAdminPrefix is the emulator's own admin API, not part of the
// interface. [lading]
const SandboxAdminPrefix = "/_sandbox"

// APIPrefix is the path prefix real deployments put before the versioned
// paths; the sandbox answers with and without it. [A.1]
const APIPrefix = "/api2"

// ProductWriteFields are the scalar product fields an import may set.
// [Spec] product table; [lading] as listed under "Product and variant write
// semantics" above.
var ProductWriteFields = []string{"name", "description", "notes"}

// VariantWriteFields are the scalar variant fields an import may set on a
// created or edited variant. [lading] see "Product and variant write
// semantics" above. Opening stock is VariantQuantity, set only on create.
var VariantWriteFields = []string{"sku", "description", "notes", "weight", "cost", "upc", "location_1", "low_stock_alert", "supplier_cost"}

// NumericVariantFields are the variant fields whose values are numbers
// given as strings ("numeric string" in the spec's variant table: weight,
// cost; [lading] supplier_cost and low_stock_alert by their meaning). Two
// values of these compare by value ("1.50" equals "1.5"); every other
// field, identifiers such as sku and upc above all, compares as text
// ("012345678905" is not "12345678905"). Pricing tier values are numeric
// strings too [Spec].
var NumericVariantFields = []string{"weight", "cost", "low_stock_alert", "supplier_cost"}

// VariantQuantity is the opening-stock field of a created variant. [Spec]
const VariantQuantity = "quantity"

// BundleComponents is the link of a bundle variant to its component
// variants, each entry {id: component variant id, quantity: units of it
// in one bundle}. [B.7, assumed] The specification says a bundle's
// availability comes from its components but shows no field naming them;
// a variant read gives this link on bundle variants (bundle "1") only.
const BundleComponents = "BundleComponents"

// Packing slip reads. [B.6, assumed] The specification lists the slip's
// writable links and "Packages" as a resource with no listing; a report
// needs a slip's shipments and line items, so this project assumes:
//
//   - A slip record read back links, besides the written Addresses,
//     Contacts, LineItems [{id, quantity}] and SalesOrders, the live
//     shipments that link the slip: links.Packages [{id}].
//   - A PackingSlips read sideloads (objects keyed by id) the LineItems,
//     SalesOrders, Addresses and Contacts the slips link, their Packages
//     and the PackageCarrierTypes those link (see Sideloads).
//   - A slip's LineItems are the lines of its sales orders as sold:
//     SlipLineItemFields, price being the unit price. A slip may also name
//     line items of a fulfillment (LineItemFields), the only line items a
//     client of the interface sees.
//   - A sideloaded shipment has the Packages fields of the specification,
//     PackageFields, and links.PackingSlips, PackageCarrierTypes,
//     SalesOrders; a carrier type is {id, name} as recorded [A.3].
//   - A sideloaded contact is ContactFields [A.3] (as in
//     sale_orders_find_sale_orders.json), plus email and phone when the
//     account has them (the service keeps those on People records).
//   - A sideloaded sales order carries SalesOrderFields [A.3] and links
//     Addresses [{id, type}] and Contacts; fulfillment reads sideload those
//     Contacts too.
//   - A slip's local_id (its own reference, which the account shows as its
//     number, filterable [Spec]) may be written when the slip is created,
//     as SlipLocalID; a slips push writes the file's slip key there, and
//     finds the slip by it when its state does not know the key.
var (
	SlipReadLinks      = []string{Addresses, Contacts, LineItems, SalesOrders, Packages}
	SlipLocalID        = "local_id"
	SlipLineItemFields = []string{"id", "sku", "variant_id", "quantity", "price", "description"}
	PackageFields      = []string{"id", "ship_date", "notes", "tracking_link", "tracking_number", "cost", "delivered"}
	ContactFields      = []string{"id", "name", "local_id", "notes", "archived"}
	// AddressFields are the fields of an Addresses record [A.3] (as in
	// sale_orders_sale_order_533943058.json), and a phone and email
	// [lading] when the recipient's differ from the customer's. The name
	// of whom a parcel goes to is `contact`.
	AddressFields = []string{"company", "contact", "nickname", "street1", "street2", "city", "state", "zip",
		"country", "country_iso", "notes", "phone", "email"}
	// ContactWriteFields are the fields a contact is entered with: its
	// name, and the email and phone the service keeps on People records.
	ContactWriteFields = []string{"name", "email", "phone", "notes"}
	SalesOrderFields   = []string{"id", "local_id", "po_num", "order_date", "currency_iso", "subtotal", "tax_total", "discount", "total", "complete"}
)
