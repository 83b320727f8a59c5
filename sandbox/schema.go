package sandbox

// schema creates every table the sandbox needs. Every record table has an
// account_id column; ids come from one shared sequence (see store.newID).
// A variant's prices, stock levels and options, and a product's tags,
// are kept in the order of their variant or product (WITHOUT ROWID), so
// that a page reads them in one stretch and a write adds one row to one
// tree, not to a table and its key's index; database files made before
// keep theirs as they were, with the unique indexes they had.
const schema = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
	id INTEGER PRIMARY KEY, name TEXT NOT NULL, next_local INTEGER NOT NULL DEFAULT 1000,
	is_default INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
	token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL, client_id TEXT NOT NULL,
	warehouse_id INTEGER NOT NULL, channel_id INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tokens_client ON tokens(account_id, client_id);
CREATE TABLE IF NOT EXISTS channels (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS account_addresses (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, label TEXT NOT NULL,
	warehouse INTEGER NOT NULL DEFAULT 1, deleted INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS products (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '', notes TEXT NOT NULL DEFAULT '', local_id TEXT NOT NULL DEFAULT '',
	archived INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS products_account ON products(account_id, deleted, id);
CREATE TABLE IF NOT EXISTS attributes (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, product_id INTEGER NOT NULL,
	name TEXT NOT NULL, ord INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS attributes_product ON attributes(product_id, name);
CREATE TABLE IF NOT EXISTS attribute_options (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, attribute_id INTEGER NOT NULL,
	name TEXT NOT NULL, ord INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
DROP INDEX IF EXISTS options_attribute;
CREATE INDEX IF NOT EXISTS options_attribute_ord ON attribute_options(attribute_id, name, ord);
CREATE TABLE IF NOT EXISTS variants (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, product_id INTEGER NOT NULL,
	sku TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', notes TEXT NOT NULL DEFAULT '',
	weight TEXT, cost TEXT, average_cost TEXT NOT NULL DEFAULT '0.0000', upc TEXT,
	location_1 TEXT NOT NULL DEFAULT '', low_stock_alert TEXT, supplier_cost TEXT NOT NULL DEFAULT '0.0000',
	supplier_id TEXT NOT NULL DEFAULT '', consignment TEXT, local_id TEXT NOT NULL DEFAULT '',
	sort_order INTEGER NOT NULL DEFAULT 0, bundle INTEGER NOT NULL DEFAULT 0, component INTEGER NOT NULL DEFAULT 0,
	stock INTEGER NOT NULL DEFAULT 0, committed_stock INTEGER NOT NULL DEFAULT 0,
	combo TEXT NOT NULL DEFAULT '', auto_description TEXT NOT NULL DEFAULT '',
	auto_description_with_option_type TEXT NOT NULL DEFAULT '',
	deleted INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS variants_sku_live ON variants(account_id, sku, deleted);
DROP INDEX IF EXISTS variants_product;
CREATE INDEX IF NOT EXISTS variants_product_live ON variants(product_id, deleted, combo);
CREATE INDEX IF NOT EXISTS variants_account ON variants(account_id, deleted, id);
CREATE TABLE IF NOT EXISTS variant_options (
	variant_id INTEGER NOT NULL, option_id INTEGER NOT NULL, position INTEGER NOT NULL,
	PRIMARY KEY (variant_id, option_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS variant_options_option ON variant_options(option_id);
CREATE TABLE IF NOT EXISTS pricing_tiers (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS pricing_tiers_name ON pricing_tiers(account_id, name);
CREATE TABLE IF NOT EXISTS variant_prices (
	id INTEGER NOT NULL, account_id INTEGER NOT NULL, variant_id INTEGER NOT NULL,
	tier_id INTEGER NOT NULL, price TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
	PRIMARY KEY (variant_id, tier_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stock_levels (
	id INTEGER NOT NULL, account_id INTEGER NOT NULL, variant_id INTEGER NOT NULL,
	address_id INTEGER NOT NULL, stock INTEGER NOT NULL DEFAULT 0, committed INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (variant_id, address_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS product_tags (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL,
	deleted INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS product_tags_name ON product_tags(account_id, name);
CREATE TABLE IF NOT EXISTS product_tag_links (
	product_id INTEGER NOT NULL, tag_id INTEGER NOT NULL, PRIMARY KEY (product_id, tag_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS product_tag_links_tag ON product_tag_links(tag_id);
CREATE TABLE IF NOT EXISTS product_files (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, product_id INTEGER NOT NULL,
	file_name TEXT NOT NULL, file_type TEXT NOT NULL, size INTEGER NOT NULL, content BLOB,
	deleted INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS product_files_product ON product_files(product_id);
CREATE TABLE IF NOT EXISTS bundle_components (
	bundle_id INTEGER NOT NULL, component_id INTEGER NOT NULL, quantity INTEGER NOT NULL,
	PRIMARY KEY (bundle_id, component_id));
CREATE TABLE IF NOT EXISTS packing_slips (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, local_id TEXT NOT NULL DEFAULT '',
	packing_slip_date TEXT, ship_date TEXT, status TEXT NOT NULL DEFAULT '', void INTEGER NOT NULL DEFAULT 0,
	notes TEXT NOT NULL DEFAULT '', deleted INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS packages (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, ship_date TEXT, notes TEXT NOT NULL DEFAULT '',
	tracking_link TEXT NOT NULL DEFAULT '', tracking_number TEXT NOT NULL DEFAULT '', cost TEXT,
	delivered TEXT NOT NULL DEFAULT '0', deleted INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS record_links (
	owner_id INTEGER NOT NULL, resource TEXT NOT NULL, target_id INTEGER NOT NULL,
	quantity TEXT, position INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS record_links_owner ON record_links(owner_id, resource);
CREATE INDEX IF NOT EXISTS record_links_target ON record_links(resource, target_id);
CREATE TABLE IF NOT EXISTS package_carrier_types (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, name TEXT NOT NULL,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS package_carrier_types_name ON package_carrier_types(account_id, name);
CREATE TABLE IF NOT EXISTS contacts (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, local_id TEXT NOT NULL, data TEXT NOT NULL,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS addresses (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, data TEXT NOT NULL,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS orders (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, local_id TEXT NOT NULL, warehouse_id INTEGER NOT NULL,
	address_id INTEGER, state TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
	contact_id INTEGER, order_date TEXT, po_num TEXT NOT NULL DEFAULT '', currency_iso TEXT NOT NULL DEFAULT 'USD');
CREATE INDEX IF NOT EXISTS orders_state ON orders(account_id, state, id);
CREATE TABLE IF NOT EXISTS order_lines (
	id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL, variant_id INTEGER NOT NULL,
	sku TEXT NOT NULL, quantity INTEGER NOT NULL, price TEXT, description TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS order_lines_order ON order_lines(order_id);
CREATE TABLE IF NOT EXISTS fulfillments (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, order_id INTEGER NOT NULL,
	warehouse_id INTEGER NOT NULL, status TEXT NOT NULL DEFAULT '', complete INTEGER NOT NULL DEFAULT 0,
	deleted INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS fulfillments_open ON fulfillments(account_id, complete, id);
CREATE TABLE IF NOT EXISTS line_items (
	id INTEGER PRIMARY KEY, fulfillment_id INTEGER NOT NULL, variant_id INTEGER NOT NULL,
	sku TEXT NOT NULL, quantity INTEGER NOT NULL, shipped_quantity INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS line_items_fulfillment ON line_items(fulfillment_id);
CREATE TABLE IF NOT EXISTS shipments (
	id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, fulfillment_id INTEGER NOT NULL,
	shipped_at TEXT NOT NULL, tracking_number TEXT NOT NULL DEFAULT '', tracking_link TEXT NOT NULL DEFAULT '',
	carrier TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, cost TEXT, package_id INTEGER);
CREATE INDEX IF NOT EXISTS shipments_fulfillment ON shipments(fulfillment_id);
CREATE TABLE IF NOT EXISTS shipment_lines (
	shipment_id INTEGER NOT NULL, line_item_id INTEGER NOT NULL, quantity INTEGER NOT NULL);
`

// timeIndexes find the records changed since a day (wire.UpdatedAt), and
// made since (a record made is updated). Kept up as a million variants
// are loaded, they made the load half as long again: a load drops them,
// and builds them after (see Server.LoadMany).
var timeIndexes = []struct{ name, on string }{
	{"variants_updated", "variants(account_id, deleted, updated_at)"},
	{"products_updated", "products(account_id, deleted, updated_at)"},
	{"product_files_updated", "product_files(account_id, deleted, updated_at)"},
}

// resetTables are emptied by Reset; accounts, tokens, channels and
// warehouses stay so that issued tokens keep working.
var resetTables = []string{
	"products", "attributes", "attribute_options", "variants", "variant_options",
	"pricing_tiers", "variant_prices", "stock_levels", "product_tags", "product_tag_links",
	"product_files", "bundle_components", "packing_slips", "packages", "record_links",
	"addresses", "orders", "order_lines", "fulfillments", "line_items", "shipments", "shipment_lines",
	"package_carrier_types", "contacts",
}

// addedColumns are columns added after the first release of the schema:
// a database file made before them gets them when it is opened (CREATE
// TABLE IF NOT EXISTS leaves its tables as they were).
var addedColumns = []struct{ table, column, decl string }{
	{"orders", "contact_id", "INTEGER"},
	{"orders", "order_date", "TEXT"},
	{"orders", "po_num", "TEXT NOT NULL DEFAULT ''"},
	{"orders", "currency_iso", "TEXT NOT NULL DEFAULT 'USD'"},
	{"order_lines", "price", "TEXT"},
	{"order_lines", "description", "TEXT NOT NULL DEFAULT ''"},
	{"shipments", "cost", "TEXT"},
	{"shipments", "package_id", "INTEGER"},
}
