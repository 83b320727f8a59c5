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
	// (ThrottleStatus, Retry-After 1 s) whatever the rate, as a gateway
	// under load does. Seed makes the fault sequence reproducible.
	FailRate     float64
	DropRate     float64
	ThrottleRate float64
	Latency      time.Duration
	Seed         int64
	// Clients are the OAuth clients allowed to authorize.
	Clients []Client
	// Logger receives one debug line per request; nil discards.
	Logger *slog.Logger
	// MaxFileBytes is the largest product file accepted (default
	// wire.MaxProductFileBytes).
	MaxFileBytes int64
}

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
// ShippingAddress means the address is not populated.
type OrderSpec struct {
	Token           string            `json:"token,omitempty"`
	AccountID       string            `json:"account,omitempty"`
	WarehouseID     string            `json:"warehouse_id,omitempty"`
	ShippingAddress map[string]string `json:"shipping_address,omitempty"`
	Lines           []OrderLine       `json:"lines"`
}

// OrderLine is one ordered SKU.
type OrderLine struct {
	SKU      string `json:"sku"`
	Quantity int64  `json:"quantity"`
}

// BundleSpec turns an existing variant into a bundle of components.
type BundleSpec struct {
	Token      string      `json:"token,omitempty"`
	AccountID  string      `json:"account,omitempty"`
	SKU        string      `json:"sku"`
	Components []OrderLine `json:"components"`
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
}
