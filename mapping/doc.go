// Package mapping reads mapping files (YAML) and turns spreadsheet rows
// into product, variant, option and pricing-tier values, or into stock
// levels, shipped lines or packing slips. This documentation is the
// reference of the mapping language.
//
// Use: Parse or Load a mapping; Compile it against the header of the
// input file; call Program.Eval for each row, in the file's order
// (fill_down depends on it), reusing one Row; hand the Row to
// catalog.Grouper. For a joined second file, the main file's
// Program.CompileJoin binds it once every main row is evaluated (see
// Joined files). For stock levels, CompileStock binds the stock section
// and StockProgram.Eval fills a StockRow (see Stock levels); shipments and
// packing slips go alike (CompileShipments, CompileSlips). A mapping that
// does not fit a file's header is a *MismatchError; Suggest says which
// template's layout the file has instead. Init writes a mapping for a
// header: the template whose layout it recognises (Recognise: the
// catalog exports, and stock, shipments and packing-slip files, whose
// columns it names as the file does), or a commented starter.
//
// The language is built of three packages below this one: mapping/expr
// (the expressions and their helpers), mapping/header (how a column
// name finds its column) and mapping/cell (how numbers, dates and times
// are read from cells).
//
// # File format
//
//	source:                 # how to read the input (all optional)
//	  format: csv           # csv | xlsx; default: from the file extension
//	  sheet: Products       # xlsx sheet; default: the first visible one
//	  header_row: 1         # row holding the column names
//	  delimiter: ","        # "," ";" tab "|"; default: detected
//	  encoding: utf-8       # utf-8 (BOM or not), utf-16, utf-16le, utf-16be, windows-1252
//	  decimal: "."          # decimal separator of numbers: "." or ","
//	  thousands: ","        # what groups thousands: "," "." " " "'"; "." makes "," the decimal
//	  date_formats: ["DD/MM/YYYY"]   # tokens YYYY YY MMMM MMM MM M DD D HH hh mm ss; YYYY-MM-DD always works
//	  allow_short_rows: false # true: CSV rows with fewer cells than the header are padded, not errors
//	group:
//	  by: key               # key | parent | children
//	  key: Handle           # the row's product key (required); {column: ID,
//	                        # fill_down: true}: a row without one belongs to the
//	                        # product above it (see Rows without a key)
//	  parent: Parent        # by: parent — on a variant row, its product's key
//	  alias: {expr: '"id:" + ID'}   # another key a product row may be referred to by
//	  children: {column: Children, split: ","}   # by: children — a product row's variant keys
//	  role: {expr: '...'}   # "product" | "variant" | "both" | "product_or_both";
//	                        # default: both, or variant when the row has a parent
//	                        # (by: parent) or takes its key from above (fill_down),
//	                        # product when it lists children (by: children)
//	product: {name: ..., description: ..., notes: ..., tags: {column: Tags, split: ","}}
//	variant: {sku: ..., stock: ..., weight: ..., cost: ..., upc: ..., description: ...,
//	          notes: ..., location_1: ..., low_stock_alert: ..., supplier_cost: ...}
//	options:
//	  pairs: [{name: Option1 Name, value: Option1 Value}, ...]   # name cell may be given on one row only
//	  columns: [Color, {name: Size, column: Taille}]             # fixed attribute columns
//	  list: Attributes          # cells like "Color=Red,Size=L", or an expr giving
//	                            # a list of name=value items (see Paired lists)
//	  list_separator: ","
//	  ignore: ["Default Title"] # values meaning "no option"
//	  values_separator: ","     # on product rows: the values an attribute allows
//	  when: Type == "variation" # read options only where this holds
//	tiers:
//	  columns: {Price: Variant Price}   # tier name: value
//	  prefix: "tier:"                   # every column "tier:<name>" is tier <name>;
//	                                    # a column "tier:" naming no tier is an error
//	images:                     # the products' images (see Images)
//	  - {column: Image Src, alt: Image Alt Text, position: Image Position}
//	  - {column: Images, split: ","}
//	  - {column: Variant Image, variant: true}
//	command: Command            # per row: upsert | create | update | archive |
//	                            # delete | skip; empty: the import's mode (see Commands)
//	skip:
//	  - when: Type in ["grouped", "external"]
//	    reason: "{Type} products are not imported"   # {Column} is replaced by the cell
//	join:                       # variants from a second file (group.by: key only;
//	                            # see Joined files)
//	  file: combinations.csv
//	  source: {...}             # as above, for the second file
//	  key: Product ID           # its column holding the main file's product key
//	  skip: [...]
//	  alone:                    # a product no joined row names: its own row's variant
//	    variant: {sku: "Reference #", stock: Quantity}
//	    tiers: {columns: {Price: Price tax excluded}}
//	tables:                     # for lookup("colours", value)
//	  colours: {rouge: Red, bleu: Blue}
//	stock:                      # stock levels (see Stock levels)
//	  sku: SKU
//	  quantity: Available
//	  warehouse: Location       # optional
//	shipments:                  # shipped lines (see Shipments and packing slips)
//	  fulfillment_id: Order ID  # or order_number
//	  sku: SKU                  # or line_item_id
//	  quantity: Qty shipped
//	  tracking_number: Tracking
//	  carrier: Carrier          # optional, as are tracking_link, cost,
//	                            # shipped_at and status
//	slips:                      # packing slips and their parcels (see there)
//	  key: Slip no              # the file's own reference of the slip
//	  order: Order ID
//
// A value is a column name, or a mapping of:
//
//	column: <header>        the cell, trimmed; in any case (see Column names);
//	                        a name with a * is a pattern
//	                        (see Column patterns)
//	value: <text>           a constant
//	expr: <expression>      an expression over the row; with column, the cell
//	                        is `value` and an empty cell skips the expression
//	type: text|number|integer|date   checks and normalises (numbers to
//	                        canonical decimals like "1.5", dates to YYYY-MM-DD;
//	                        a date with a time of day other than midnight is
//	                        an error, see Dates)
//	required: true          an empty value is an error
//	clear_when_empty: true  an empty cell clears the target (otherwise an
//	                        empty cell never erases anything)
//	default: <text>         used when the value is empty
//	split: ","              for list values (tags, children)
//	optional: true          the column may be missing from the file
//	fill_down: true         group.key only: see Rows without a key
//
// A SKU or a UPC (variant.sku, variant.upc, stock.sku, shipments.sku) in
// scientific notation ("1.23457E+11", as a spreadsheet shows and saves a
// long number) is an error of its row: the spreadsheet held the code as a
// number and has already lost its digits; the message says to format the
// column as text.
//
// Expressions are github.com/expr-lang/expr. A column is a bare name when
// it is one word (Type == "variable") or col("Column Name"). Besides expr's
// builtins (trim, lower, upper, split, join, replace, hasPrefix, ...) there
// are: number(s[, decimal]) (the source's decimal separator by default; ""
// is 0), shift(s, places) (exact decimal shift: shift(value, -3) turns
// grams into kilograms), date(s) (the date of s as YYYY-MM-DD, without
// its time of day), default(s, fallback), lookup(table, key[,
// fallback]), kv(s[, sep, assign]) ("k=v,k=v" to a map), list(s[, sep])
// ("a|b|c" to a list), text(x), pairs and dropLast (see Paired lists),
// weight and length (see Units), and product("Column") in a joined file's
// rows (see Joined files) and under fill_down (see Rows without a key).
//
// An expression runs on every row, so what it may make is bounded: shift()
// moves a decimal point at most 30 places; a text made by a helper
// (repeat, replace, join, upper, lower, text, string), by + or as the
// value is at most 1 MiB; the expressions of one row make at most 16 MiB
// of text; the lists, ranges and maps an expression builds hold at most
// 100,000 items; an expression has at most 1,000 parts. Going over a
// limit is an error naming the limit and where the expression is in the
// mapping file (a Compile error when the amount is written out, like
// shift(value, 3000000000)). expr's toJSON, toBase64, concat and flatten,
// which can copy a text or a list many times over, are not available.
//
// # Rows without a key
//
// Some exports write a product's key on its first row only, and its other
// rows, its variants, below it with the key left empty: Squarespace's
// variant rows have no Product ID, BigCommerce's "SKU" rows follow their
// "Product" row without it. With fill_down, a row whose key is empty
// belongs to the product of the nearest row above it that gives a key:
//
//	group:
//	  key: {column: "Product ID [Non Editable]", fill_down: true}
//
// A row that takes its key from above is a variant row (its product
// values are not read: the product's name, description and tags come
// from the row that gives the key) unless group.role says otherwise. The
// key may come from an expression; one that gives "" leaves the row to
// the product above it, like an empty cell:
//
//	key:
//	  expr: 'trim(col("Item Type")) == "Product" ? col("Product ID") : ""'
//	  fill_down: true
//
// product("Column") reads a cell of the row that gives the key (the row
// itself when it gives one) in the variant, options, tiers and skip
// sections, so that a variant row reads what only its product's row says:
//
//	tiers:
//	  columns:
//	    Price: {expr: 'default(col("Price"), product("Price"))'}
//
// A row without a key and none above it to take (the file's first rows)
// is an error of the row, as is one below a row whose key is invalid. A
// skip rule that skips the row giving the key skips the rows that take
// it too, each with that reason; a row skipped for itself leaves its
// product as it is. fill_down works with group.by: key and without join.
//
// When a product's own row is its variant only if it has no variant rows
// (BigCommerce's "Product" row: a product without SKU rows is sold as
// itself), group.role gives it "product_or_both": the row is a product
// row, and its variant, options and tiers are read as a variant's and
// kept for the case that no other row gives the product a variant. Their
// errors count only then.
//
//	role: {expr: 'trim(col("Item Type")) == "Product" ? "product_or_both" : "variant"'}
//
// # Images
//
// The images section lists where the rows name the products' images:
// each entry is a value (a column, a constant or an expression; see
// above) giving one image or a list of them, a column's cell split on
// split (default ","), each an http or https URL or a path under the
// import's images folder. Beside the value's keys an entry may give alt
// (the alt text) and position (an integer; a list's items take the
// positions after it) where the layout has them, and variant: true when
// the images are the row's variant's (Shopify's Variant Image): such an
// entry is read on rows with a variant, from the joined file when the
// mapping joins one; the others on every row of the main file, images-
// only rows included. An import uploads every distinct image of a
// product once, as a file of the product; a value that cannot be read
// (an expression's error) fails its image, not the row.
//
//	images:
//	  - {column: Image Src, alt: Image Alt Text, position: Image Position}
//	  - {column: Variant Image, variant: true}
//	  - {expr: '[base_image, small_image, thumbnail_image]'}
//
// # Commands
//
// command gives each row a command, a value like any other (a column,
// or an expression over the row): what an import does with the row's
// product, or its variant. The words are read in any case, spaces around
// them trimmed:
//
//	upsert    create the product if it is new, update it if it changed
//	create    create it if it is new; leave it as it is if it exists
//	update    update it if it exists; report it if it does not
//	archive   archive it (a product in the account; its rows' values are
//	          not written); one already archived is unchanged
//	delete    delete it, or the row's variant (below)
//	skip      leave it as it is; its rows are reported skipped
//
// An empty value asks nothing: the row goes by the import's mode (--mode,
// upsert unless it says otherwise); upsert, create and update ask for a
// product what the modes upsert, create-only and update-only ask for the
// whole import. Any other word is an error of its row, naming the
// column, the value and the words allowed.
//
// A product's command is the one its product rows give, and its rows
// that are both (one row per variant, like Shopify's); rows that give one
// give the same, or the second is an error of its row. delete says what
// its row is: on a product row it deletes the product with its variants;
// on a variant row, the row's variant; on a row that is both, the row's
// variant, and when a product's rows delete every variant the account
// holds of it, the product. A variant row may say delete or nothing (upsert
// is taken as nothing); another word is an error of its row.
//
// A product or variant to archive or delete that is not in the account is
// reported on its rows, not written, and is no error of the import. With
// join, the command is read on the main file's rows, the products; the
// joined file's rows give none. Platforms whose exports carry such a
// column (Matrixify's Command: MERGE, NEW, UPDATE, DELETE, IGNORE) map it
// through a lookup table:
//
//	command:
//	  column: Command
//	  optional: true
//	  expr: 'lookup("commands", upper(value), value)'
//	tables:
//	  commands: {MERGE: upsert, NEW: create, UPDATE: update, DELETE: delete, IGNORE: skip}
//
// # Joined files
//
// Some platforms export products and their variants as two files, like
// PrestaShop's products and combinations. With join, the main file's rows
// are the products (group, product and skip read them) and every row of
// the joined file (join.file, beside the main file) is a variant of the
// product whose key its join.key column holds: variant, options and tiers
// read the joined file, and join.skip skips its rows.
//
// A product that no joined row names is a simple product with one
// variant when join.alone says where that variant's values are on the
// product's own row: join.alone.variant and join.alone.tiers are written
// like the variant and tiers sections, over the main file's columns.
// Their values are read on every product row, but count only for a
// product without joined rows: a product with combinations and no
// reference of its own is no error even with sku: {column: "Reference #",
// required: true}. A product given on several main rows takes the
// variant of its first. Without join.alone, a product without joined rows
// has no variant.
//
// A joined row's expressions (variant, options, tiers, join.skip) read a
// cell of their product's row in the main file with product("Column"):
// the product's first row, trimmed; "" for a product no main row has
// (that row fails for naming an unknown product anyway). Computed values
// combine both files:
//
//	tiers:
//	  columns:
//	    Price: {expr: 'number(product("Price tax excluded")) + number(col("Impact on price"))'}
//	variant:
//	  sku: {expr: 'default(Reference, product("Reference #"))'}
//	join:
//	  skip:
//	    - when: product("Active (0/1)") == "0"
//	      reason: the product is not active
//
// The column is the main file's, checked against its header (with the
// close matches when it has no such column; a column pattern works too).
// product() elsewhere (the main file's sections, join.key, join.alone) is
// an error of the mapping, as is a column name not written in quotes.
// The main file's cells the joined rows read are kept for every product,
// the only part of the main file kept in memory beyond the products.
//
// # Paired lists
//
// Some exports give a variant's attributes as two parallel lists, names
// in one cell and values in another, each item with a position suffix.
// PrestaShop's combinations, for one:
//
//	Attribute (Name:Type:Position)   Color:color:0, Disk space:select:1
//	Value (Value:Position)           Blue:0, 16GB:1
//
// pairs(names, values[, sep]) pairs the items of two lists by position
// into "name=value" items: each of names and values is a list (from
// list(), split() or dropLast()) or a text split on sep (default ","),
// items trimmed. Lists of different lengths are an error of the row
// naming both; a name holding "=" is an error.
//
// dropLast(x, sep[, n]) drops the last n parts (default 1) that sep
// separates from a text, or from each item of a list: dropLast("Blue:0",
// ":") is "Blue", dropLast("Color:color:0", ":", 2) is "Color", and
// dropLast("16:9:3", ":") is "16:9" (only the last part goes). A text
// with fewer separators keeps its first part.
//
// options.list takes either a text of name=value items separated by
// list_separator, or a list of name=value items, read one by one (so a
// value may hold the separator). Together:
//
//	options:
//	  list:
//	    expr: >-
//	      pairs(dropLast(list(col("Attribute (Name:Type:Position)*"), ","), ":", 2),
//	            dropLast(list(col("Value (Value:Position)*"), ","), ":"))
//
// gives the options Color=Blue and Disk space=16GB. Empty values and
// those options.ignore lists give no option, as in every form.
//
// # Column names
//
// A column is named as the file's header writes it, or differing only in
// case and spaces: a name no column has as written finds the one column
// whose name is the same in any case, with the spaces around it dropped
// and each run of spaces inside it (tabs and no-break spaces too) read as
// one space. So sku finds a column "SKU", and "Option1 value" one
// "Option1  Value"; spaces are not dropped altogether ("Option1Value" is
// another name). This holds wherever a mapping names a column: a value's
// column, a bare name or col() in an expression, product(), a skip
// reason's {Column} and a column pattern. A column with the name as
// written is taken first; when no column has it and two or more have it
// in other cases or spacing ("Sku" and "SKU"), that is an error naming
// them, optional or not: write the name of the one to use as the file
// writes it. A name an expression declares with let is no column, nor is
// the name of one of expr's functions (trim, len, ...) unless a column has
// that very name.
//
// # Column patterns
//
// Where a column's name varies from one export to another, like
// WooCommerce's "Weight (lbs)", "Weight (kg)", "Weight (g)" or "Weight
// (oz)" (the store's unit), a column name may hold one *, standing for any
// text: "Weight (*)" names the one column of the file that starts with
// "Weight (" and ends with ")". In the value's expression, match is the
// text the * stands for ("lbs"), so that
//
//	weight: {column: "Weight (*)", expr: "weight(value, match)"}
//
// reads the weight in any unit the export has and converts it to
// kilograms. A pattern works wherever a column is named: any value
// (product, variant, group, join.key, options pairs and columns, tiers,
// stock), col("EAN*") in an expression, and {Type (*)} in a skip
// reason; match is only the * of the value's own column.
//
// A column whose name is exactly the text given is taken first, so
// "Name*" still names a column called "Name*"; a pattern is matched as
// written first, then ignoring case and spaces (see Column names). A
// pattern that matches no
// column is the error of an unknown column, listing the close matches (or,
// with optional: true, leaves the value unmapped); one that matches two or
// more columns is an error naming them, optional or not: write the name
// of the one to use. match in a value whose column is no pattern is an
// error; a column named "match" is written col("match"). The text match
// stands for is known once the header is read, so weight(value, match)
// over a header "Weight (stone)" is an error of the mapping, before any
// row is read.
//
// # Units
//
// weight(v, unit[, to]) converts the weight v, written in unit, to the
// unit to: kilograms (kg) unless to is given, the unit of the service's
// variant weight. Weight units are g, kg, lb, lbs and oz, or spelt out
// (gram, grams, kilogram, kilograms, kgs, pound, pounds, ounce, ounces).
// length(v, unit[, to]) does the same for lengths, to centimetres (cm)
// unless to is given; length units are mm, cm, m, in and ft (or
// millimetre(s), centimetre(s), metre(s), their -meter spellings, inch,
// inches, foot, feet). The service has no length field: length() serves
// whatever field a mapping puts a length in (a description, notes).
//
// The unit may come from a cell or from the header. From a cell, like
// Shopify's "Variant Weight Unit":
//
//	weight: {expr: 'weight(col("Variant Weight"), col("Variant Weight Unit"))'}
//
// From the header, with a column pattern (see Column patterns), like
// WooCommerce's "Weight (lbs)" or "Weight (kg)":
//
//	weight: {column: "Weight (*)", expr: "weight(value, match)"}
//
// Units are matched without regard to case, spaces or a final "."
// ("LBS", "lbs."). v is read with the source's decimal separator (a
// number an expression computed is taken as it is); an empty v gives no
// value, not 0. The result is a number, rounded to 6 decimal places (1
// lb is 0.453592 kg; 145 g is 0.145 kg exactly), on which an expression
// may go on computing. A unit the helper does not know is an error of the
// row naming the unit and the units accepted, or an error of the mapping
// when the unit is written out in the expression (weight(value,
// "stone")).
//
// Numbers an expression computes keep at most 15 significant digits, as
// many as a binary floating-point number holds exactly, so that
// number(Price) + number(Impact) of 19.99 and 1.1 is 21.09, not
// 21.089999999999996.
//
// # Dates
//
// Dates are written YYYY-MM-DD, or in one of source.date_formats, and may
// be followed by a time of day ("2024-03-01 14:30", "2024-03-01T14:30:00Z",
// "01/03/2024 2:30 PM"). No target takes a date and a time: a value of
// type date keeps the date, and when the time is not midnight the row is
// refused with an error saying so, since a merchant who meant the moment
// would otherwise lose it without a word. To import the date alone, say
// so with the date() helper: {column: Made, expr: date(value)} takes the
// date of the cell and drops its time of day. A time of midnight
// ("2024-03-01 00:00:00", how many exports write dates) is no error.
//
// # Size
//
// A mapping file is read whole and checked before its YAML is parsed: it
// may be at most 64 MiB, and besides its lookup tables at most 2,000
// lines (not counting blank lines and comments) or 256 KiB; [ and { may
// nest 32 deep and its structure be indented at most 120 columns. Going
// over is an *Error at the line and column where it happens. It must be
// UTF-8, as YAML is: a file saved in a Windows code page or as UTF-16 is
// refused at its first byte that is not.
//
// Lookup tables written one "key: value" a line, with plain or quoted
// ('…', or "…" without escapes) keys and values and comments, are read
// in time in proportion to their entries (200,000 entries in a fraction of
// a second) and have no limit but the file's; other tables (flow style,
// anchors, escapes, values over several lines) are read by the YAML
// parser and count towards its limits. A key given twice in a table is
// an error.
//
// # Shipments and packing slips
//
// A shipments section maps a warehouse system's shipment confirmations:
// each row names a fulfillment (fulfillment_id, or order_number), a line
// of it (line_item_id, or sku), the units shipped (quantity, a whole
// number of 1 or more) and the parcel's tracking_number; carrier,
// tracking_link, cost (0 or more), shipped_at and status are optional.
// At least one of each pair must be mapped, and every row needs one of
// them filled. shipped_at is a date in the source's formats, optionally
// with a time of day and an offset (Z, +02:00, UTC); CompileShipments
// takes the zone of times without one (see cell.ParseTimestamp). A date
// before 1900 is refused, as the slips' dates are: 0001-01-01 is what
// systems write for a date they do not have.
//
// A slips section maps packing slips and their parcels (Packages): key
// (the file's own reference of the slip, which lading remembers) and order
// are required; packing_slip_date, notes, line_item and quantity (together),
// package, ship_date, tracking_number, tracking_link, cost, carrier and
// delivered (yes/no, 1/0, true/false) are optional. Rows with one key are
// one slip.
//
// A mapping with a shipments or slips section and no catalog part maps
// only those (ShipmentsOnly, SlipsOnly); Compile refuses it for an import.
//
// # Stock levels
//
// A stock section maps the rows of a stock file, like a warehouse
// system's inventory export, to stock levels: sku (required), quantity
// (required: the units to set) and warehouse (optional: the warehouse the
// level is for, as the file names it). Each is a value like any other, a
// column or {column, expr, value, default, ...}; clear_when_empty does
// not apply, and only warehouse may be optional. The source settings and
// the skip rules apply to stock rows as to a catalog's.
//
// A mapping with a stock section needs no catalog part: one with no
// group, product, variant, options, tiers or join maps stock levels only
// (StockOnly), and Compile refuses it for an import, saying so. A mapping
// with both imports a catalog and pushes stock levels from the same
// layout. CompileStock on a mapping without a stock section is an error
// saying how to add one.
//
// A quantity is a whole number of units, 0 or more, read with the
// source's decimal separator. What warehouse systems write in quantity
// cells is read as a count when it is one: "12.0" (fixed decimals) is 12;
// thousands separators in groups of three ("1,234", "1 234", and "1.234"
// with decimal ",") are 1234. A count with one separator followed by three
// zeros ("1.000", "12,000") reads as a thousand units or as one, as the
// warehouse meant: it is refused as ambiguous unless the source sets
// decimal or thousands. A count is written out: "1E3" is refused, and one
// of more than 15 digits ("1e20", "1e300") is too large. Three more
// things are refused, each with its own message: a cell that is no number
// ("n/a", "not stocked", "2,5" with decimal "."), a fraction ("2.5": stock
// is counted in whole units; when the fraction would be a whole number
// read with the other decimal separator, like "1.234" with ".", the
// message says to change source.decimal), and a negative number
// (oversold stock some systems show as -3: skip such rows, or map them to
// 0 with expr: 'max(number(value), 0)'). A quantity of more than 15
// digits (beyond what the service counts exactly, and likely a barcode in
// the wrong column) is refused too. An empty quantity is an error unless
// the value has a default. Since "1,234" reads as 1234 with decimal "."
// and as a fraction with ",", set source.decimal to the file's.
//
// Pricing-tier prices, variant weight, cost, supplier_cost and stock
// (opening stock) must be 0 or more: a negative value is an error of the
// row, naming its column and value, and is never sent.
//
// Every error in a mapping is an *Error with the line and column of the
// YAML at fault and the values allowed there; Compile reports unknown
// columns with the close matches in the header (an ErrorList, inside a
// *MismatchError). Errors of a row are
// FieldErrors naming the column, the value, the target and the rule.
package mapping
