package sandbox

import (
	"log/slog"
	"time"
)

// Options configure a Server. The zero value is a usable in-memory
// sandbox without throttling or faults.
type Options struct {
	// DBPath is the SQLite file holding the data; "" keeps it in memory.
	DBPath string
	// Rate is the sustained number of requests per second allowed per
	// token; 0 means unlimited. Burst is the bucket size (default: Rate
	// rounded up, at least 1).
	Rate  float64
	Burst int
	// ThrottleStatus is the status of a throttled answer: 429 (default,
	// with Retry-After) or 403 (the gateway's "Throttling due to too many
	// requests" body).
	ThrottleStatus int
	// FailRate is the share of interface calls answered 500 before anything
	// is applied; DropRate the share of writes applied and then answered by
	// closing the connection; Latency is added to every interface call.
	// ThrottleRate is the share of interface calls answered as throttled
	// (ThrottleStatus, Retry-After 1 s unless NoRetryAfter) whatever the
	// rate, as a gateway under load does. Seed makes the fault sequence
	// reproducible.
	FailRate     float64
	DropRate     float64
	ThrottleRate float64
	Latency      time.Duration
	Seed         int64
	// NoRetryAfter leaves Retry-After out of the 429s of ThrottleRate, as
	// a service that does not say how long to wait: the client backs off
	// on its own, which a test can make milliseconds where a Retry-After
	// would cost it a second each time. Throttles of Rate keep theirs.
	NoRetryAfter bool
	// Clients are the OAuth clients allowed to authorize.
	Clients []Client
	// Logger receives one debug line per request; nil discards.
	Logger *slog.Logger
	// MaxFileBytes is the largest product file accepted (default
	// wire.MaxProductFileBytes).
	MaxFileBytes int64
	// MaxMemoryFileBytes bounds the bytes of product files an in-memory
	// sandbox (no DBPath) holds in memory, all files together (default
	// 64 MiB; negative: none); the files beyond it are kept in a
	// temporary folder removed on Close. A file-backed sandbox keeps them
	// in a folder beside its database (DBPath + ".files").
	MaxMemoryFileBytes int64
}

// defaultMemoryFileBytes is Options.MaxMemoryFileBytes when left zero.
const defaultMemoryFileBytes = 64 << 20

// Client is a registered OAuth client.
type Client struct {
	ID          string
	Secret      string
	RedirectURI string
}

// Account describes what a token gives access to: its account and the
// channel and warehouse (an AccountAddresses record) created with it.
type Account struct {
	ID          string `json:"account_id"`
	WarehouseID string `json:"warehouse_id"`
	ChannelID   string `json:"channel_id"`
}

// OrderSpec is an order entering the account, as the admin API takes it.
// Exactly one of Token and AccountID names the account; WarehouseID
// defaults to the token's warehouse (another id means the order is not
// assigned to a fulfillment warehouse of this integration); an empty
// ShippingAddress means the address is not populated. ShippingAddress
// and Contact take the fields of an Addresses record (company, contact,
// street1, street2, city, state, zip, country, country_iso) and of a
// Contacts record (name, email, phone, notes). OrderDate is an ISO 8601
// date-time (default: now), Currency an ISO code (default USD).
type OrderSpec struct {
	Token           string            `json:"token,omitempty"`
	AccountID       string            `json:"account,omitempty"`
	WarehouseID     string            `json:"warehouse_id,omitempty"`
	ShippingAddress map[string]string `json:"shipping_address,omitempty"`
	Contact         map[string]string `json:"contact,omitempty"`
	OrderDate       string            `json:"order_date,omitempty"`
	PONum           string            `json:"po_num,omitempty"`
	Currency        string            `json:"currency_iso,omitempty"`
	Lines           []OrderLine       `json:"lines"`
}

// OrderLine is one ordered SKU (or a component of a bundle). Price, on an
// order's line only, is the unit price as a decimal ("19.99"); without it
// the line takes the variant's price in its first pricing tier, if any.
type OrderLine struct {
	SKU      string `json:"sku"`
	Quantity int64  `json:"quantity"`
	Price    string `json:"price,omitempty"`
}

// BundleSpec turns an existing variant into a bundle of components.
type BundleSpec struct {
	Token      string      `json:"token,omitempty"`
	AccountID  string      `json:"account,omitempty"`
	SKU        string      `json:"sku"`
	Components []OrderLine `json:"components"`
}

// SlipSpec is a packing slip of an order, with its shipments, as the
// admin API takes it. Order is the id CreateOrder gave; Lines are SKUs of
// the order and the units the slip packs (default: every line in full);
// Date is the packing_slip_date (ISO 8601, default now). The slip links
// the order, its shipping address, its contact and its lines.
type SlipSpec struct {
	Token     string        `json:"token,omitempty"`
	AccountID string        `json:"account,omitempty"`
	Order     string        `json:"order"`
	Date      string        `json:"packing_slip_date,omitempty"`
	Notes     string        `json:"notes,omitempty"`
	Status    string        `json:"status,omitempty"`
	Lines     []OrderLine   `json:"lines,omitempty"`
	Packages  []PackageSpec `json:"packages,omitempty"`
}

// PackageSpec is a shipment of a packing slip. ShipDate defaults to the
// slip's date; Carrier is a carrier's name (USPS, UPS, FedEx, DHL, ...),
// created in the account as a carrier type when new; Cost is a decimal
// amount ("8.95").
type PackageSpec struct {
	ShipDate       string `json:"ship_date,omitempty"`
	TrackingNumber string `json:"tracking_number,omitempty"`
	TrackingLink   string `json:"tracking_link,omitempty"`
	Carrier        string `json:"carrier,omitempty"`
	Cost           string `json:"cost,omitempty"`
	Delivered      bool   `json:"delivered,omitempty"`
	Notes          string `json:"notes,omitempty"`
}

// SlipResult names the packing slip and the shipments CreateSlip made.
type SlipResult struct {
	ID       string   `json:"id"`
	Packages []string `json:"packages"`
}

// SeedSpec asks for Orders orders (default 20, at most 1000) made from the
// account's variants, with their packing slips and shipments, dated over
// Month (YYYY-MM, default 2026-01). The same Seed on the same catalog
// makes the same data. The Unshipped most recent orders (default a fifth
// of them) get no slip yet and open their fulfillments when stock allows;
// the others are shipped and complete (history: they move no stock).
// Locations gives every variant without a location_1 one, like B-04-2
// (aisle, bay, shelf), for picking lists.
type SeedSpec struct {
	Token     string `json:"token,omitempty"`
	AccountID string `json:"account,omitempty"`
	Orders    int    `json:"orders,omitempty"`
	Seed      int64  `json:"seed,omitempty"`
	Month     string `json:"month,omitempty"`
	Unshipped *int   `json:"unshipped,omitempty"`
	Locations bool   `json:"locations,omitempty"`
}

// SeedResult names what Seed made, orders in date order.
type SeedResult struct {
	Orders   []string `json:"orders"`
	Slips    []string `json:"slips"`
	Packages []string `json:"packages"`
}

// Counters are what the sandbox has seen since start or the last reset.
type Counters struct {
	// Requests counts interface calls per path (without wire.APIPrefix).
	Requests map[string]int64 `json:"requests"`
	// Throttled counts answers refused by throttling.
	Throttled int64 `json:"throttled"`
	// Unauthorized counts calls refused for a missing or unknown token.
	Unauthorized int64 `json:"unauthorized"`
	// Faults counts injected faults by kind: "fail", "drop", "latency".
	Faults map[string]int64 `json:"faults"`
	// StockWrites counts the write requests handled (not throttled, not
	// failed by an injected fault) that carry at least one
	// links.ReconcileInventory entry, applied or not.
	StockWrites int64 `json:"stock_writes"`
	// LevelsSet counts the ReconcileInventory entries applied: an entry of
	// a refused record (a deleted variant, a bad entry beside it) is not
	// counted.
	LevelsSet int64 `json:"levels_set"`
	// InFlight counts the interface calls being answered now: arrived,
	// not yet answered. A write of a client that is gone may still be
	// applied while it is counted.
	InFlight int64 `json:"in_flight"`
}
