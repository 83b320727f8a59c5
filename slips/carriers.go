package slips

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"lading/api"
	"lading/engine"
	"lading/state"
)

// carrierScope is where a push remembers an account's carrier types:
// name → id.
func carrierScope(account string) string { return state.KeyCarriers(account) }

// carriers finds the carrier types the rows name.
type carriers struct {
	p     *Pusher
	known map[string]string // lower-case name → id
	names map[string]string // lower-case name → the name as the account writes it
}

// isID reports whether s is a record id rather than a name.
func isID(s string) bool { return s != "" && len(s) <= 18 && strings.Trim(s, "0123456789") == "" }

// resolve gives each shipment to send its carrier type's id: one the rows
// give as an id, or a name the state remembers, or one the account's
// recent shipments use (one read of the newest slips, whose shipments'
// carrier types it sideloads, when a name is not remembered). A slip one
// of whose shipments names an unknown carrier is not sent: its rows are
// invalid.
func (c *carriers) resolve(ctx context.Context, slips []*slip) error {
	var want []string
	for _, s := range slips {
		for _, k := range s.packages {
			if k.carrier != "" && !isID(k.carrier) {
				want = append(want, strings.ToLower(k.carrier))
			}
		}
	}
	if len(want) == 0 {
		c.assign(slips)
		return nil
	}
	known, err := c.p.Opts.State.AllIDs(ctx, carrierScope(c.p.Opts.Scope))
	if err != nil {
		return err
	}
	c.known, c.names = map[string]string{}, map[string]string{}
	for name, id := range known {
		c.known[strings.ToLower(name)], c.names[strings.ToLower(name)] = id, name
	}
	if slices.ContainsFunc(want, func(n string) bool { return c.known[n] == "" }) {
		if err := c.readRecent(ctx); err != nil {
			return err
		}
	}
	c.assign(slips)
	return nil
}

// readRecent reads the newest page of slips for the carrier types their
// shipments link, and remembers them.
func (c *carriers) readRecent(ctx context.Context) error {
	opts := &api.ListOptions{MaxPages: 1, Sort: []api.Sort{{Attr: "id", Desc: true}}}
	learned := map[string]string{}
	for page, err := range c.p.Opts.Client.PackingSlips.ListPages(ctx, opts) {
		if err != nil {
			return fmt.Errorf("reading the account's newest packing slips for the carriers their shipments use: %w", err)
		}
		for id, t := range page.PackageCarrierTypes {
			name := strings.TrimSpace(string(t.Name))
			if name == "" || t.Deleted.Bool() {
				continue
			}
			learned[name] = string(id)
			c.known[strings.ToLower(name)], c.names[strings.ToLower(name)] = string(id), name
		}
	}
	return c.p.Opts.State.PutIDs(ctx, carrierScope(c.p.Opts.Scope), learned)
}

// assign sets each shipment's carrier id, or settles its slip.
func (c *carriers) assign(slips []*slip) {
	for _, s := range slips {
		for _, k := range s.packages {
			switch {
			case k.carrier == "":
			case isID(k.carrier):
				k.carrierID = k.carrier
			case c.known[strings.ToLower(k.carrier)] != "":
				k.carrierID = c.known[strings.ToLower(k.carrier)]
			default:
				s.action = engine.Invalid
				s.msg = fmt.Sprintf("carrier %q is not one this account's shipments use (known: %s); write it as the account names it, give the carrier type's id, or map your names to ids with a lookup table in the mapping", k.carrier, c.list())
			}
		}
	}
}

// list names the known carriers for a message.
func (c *carriers) list() string {
	var names []string
	for k := range c.known {
		n := c.names[k]
		if n == "" {
			n = k
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return "none yet"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
