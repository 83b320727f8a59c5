package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// Seed limits and defaults.
const (
	seedDefaultOrders = 20
	seedMaxOrders     = 1000
	seedDefaultMonth  = "2026-01"
)

// Seed makes orders from the account's variants, with packing slips and
// shipments, so that reports of slips, shipments and open fulfillments
// have realistic data: dates spread over a month, one to four lines an
// order, a carrier, tracking number and link and a cost with cents per
// shipment, a quarter of the slips shipped in two packages, a few slips
// with notes. Shipped orders are history: complete, with no fulfillment,
// their stock gone before the account's levels were set. The unshipped
// ones enter as CreateOrder enters them, opening their fulfillments when
// stock allows. The same seed on the same catalog makes the same data.
func (s *Server) Seed(ctx context.Context, spec SeedSpec) (SeedResult, error) {
	a, err := s.resolveAccount(ctx, spec.Token, spec.AccountID)
	if err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	sd, err := newSeeder(a, spec)
	if err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	err = s.st.do(ctx, func(t *txn) error {
		if spec.Locations {
			if err := t.assignLocations(a.account); err != nil {
				return err
			}
		}
		if err := sd.loadVariants(t); err != nil {
			return err
		}
		return sd.run(t)
	})
	if err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	return sd.out, nil
}

// seeder makes the orders, slips and shipments of one Seed call.
type seeder struct {
	a         access
	rng       *rand.Rand
	orders    int
	unshipped int
	start     time.Time // the month's first instant, UTC
	end       time.Time // the next month's
	variants  []seedVariant
	out       SeedResult
}

// seedVariant is a variant an order may take, with the price it sells at.
type seedVariant struct {
	sku, price string
}

func newSeeder(a access, spec SeedSpec) (*seeder, error) {
	n := spec.Orders
	if n == 0 {
		n = seedDefaultOrders
	}
	if n < 1 || n > seedMaxOrders {
		return nil, fmt.Errorf("orders %d: ask for 1 to %d orders", n, seedMaxOrders)
	}
	month := spec.Month
	if month == "" {
		month = seedDefaultMonth
	}
	start, err := time.Parse("2006-01", strings.TrimSpace(month))
	if err != nil {
		return nil, fmt.Errorf("month %q is not a month like 2026-01", month)
	}
	unshipped := n / 5
	if spec.Unshipped != nil {
		unshipped = *spec.Unshipped
	}
	if unshipped < 0 || unshipped > n {
		return nil, fmt.Errorf("unshipped %d: give 0 to the %d orders asked for", unshipped, n)
	}
	return &seeder{
		a: a, rng: rand.New(rand.NewPCG(uint64(spec.Seed), 0x6c6164696e67)), orders: n, unshipped: unshipped,
		start: start, end: start.AddDate(0, 1, 0),
		out: SeedResult{Orders: []string{}, Slips: []string{}, Packages: []string{}},
	}, nil
}

// loadVariants reads the account's live variants with a SKU, in id order,
// each priced at its first pricing tier, else at its cost marked up, else
// at a price made from its SKU.
func (sd *seeder) loadVariants(t *txn) error {
	err := t.eachRow(`SELECT v.sku, v.cost, (SELECT p.price FROM variant_prices p WHERE p.variant_id = v.id ORDER BY p.tier_id LIMIT 1)
		FROM variants v WHERE v.account_id = ? AND v.deleted = 0 AND v.sku != '' ORDER BY v.id`, []any{sd.a.account},
		func(rows *row) error {
			var sku string
			var cost, price sql.NullString
			if err := rows.Scan(&sku, &cost, &price); err != nil {
				return err
			}
			sd.variants = append(sd.variants, seedVariant{sku: sku, price: seedPrice(sku, cost, price)})
			return nil
		})
	if err == nil && len(sd.variants) == 0 {
		return errors.New("the account has no variant with a SKU: import a catalog first")
	}
	return err
}

// assignLocations gives the account's live variants that are not bundles
// and have no location_1 one, in id order (a product's variants side by
// side): aisles A, B, ... of 8 bays of 5 shelves, like "B-04-2".
func (t *txn) assignLocations(account int64) error {
	var ids []int64
	if err := t.eachRow(`SELECT id FROM variants WHERE account_id = ? AND deleted = 0 AND bundle = 0 AND location_1 = '' ORDER BY id`,
		[]any{account}, func(rows *row) error {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
			return nil
		}); err != nil {
		return err
	}
	for i, id := range ids {
		aisle := string(rune('A' + i/40%26))
		loc := fmt.Sprintf("%s-%02d-%d", aisle, i/5%8+1, i%5+1)
		if _, err := t.exec(`UPDATE variants SET location_1 = ?, updated_at = ? WHERE id = ?`, loc, t.now, id); err != nil {
			return err
		}
	}
	return nil
}

// seedPrice is a variant's selling price for seeded orders.
func seedPrice(sku string, cost, price sql.NullString) string {
	if price.Valid && price.String != "" {
		return price.String
	}
	var c float64
	if cost.Valid && cost.String != "" {
		if _, err := fmt.Sscan(cost.String, &c); err == nil && c > 0 {
			return fmt.Sprintf("%.2f", c*1.8)
		}
	}
	h := fnv.New32a()
	h.Write([]byte(sku))
	n := h.Sum32()
	return fmt.Sprintf("%d.%02d", 5+n%70, []int{99, 50, 0, 95}[n/70%4])
}

// run makes the orders in date order; the most recent sd.unshipped get no
// slip.
func (sd *seeder) run(t *txn) error {
	dates := make([]time.Time, sd.orders)
	span := sd.end.Sub(sd.start) - 72*time.Hour // room to pack and ship within the month
	for i := range dates {
		dates[i] = sd.start.Add(time.Duration(sd.rng.Int64N(int64(span)))).Truncate(time.Minute)
	}
	slices.SortFunc(dates, func(x, y time.Time) int { return x.Compare(y) })
	for i, date := range dates {
		order, err := t.insertOrder(sd.a, sd.order(i, date))
		if err != nil {
			return err
		}
		sd.out.Orders = append(sd.out.Orders, itoa(order))
		if i >= sd.orders-sd.unshipped {
			err = t.tryInitialise(sd.a.account, order)
		} else {
			err = sd.ship(t, order, date)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// order is the i-th order: a customer, one to four distinct variants,
// mostly one unit of each.
func (sd *seeder) order(i int, date time.Time) OrderSpec {
	c := seedCustomers[sd.rng.IntN(len(seedCustomers))]
	n := min(1+sd.rng.IntN(4), len(sd.variants))
	picked := map[int]bool{}
	var lines []OrderLine
	for tries := 0; len(lines) < n && tries < 20; tries++ {
		j := sd.rng.IntN(len(sd.variants))
		if picked[j] {
			continue
		}
		picked[j] = true
		qty := int64(1)
		if sd.rng.IntN(10) >= 7 {
			qty += sd.rng.Int64N(3)
		}
		lines = append(lines, OrderLine{SKU: sd.variants[j].sku, Quantity: qty, Price: sd.variants[j].price})
	}
	return OrderSpec{
		ShippingAddress: c.address(), Contact: c.contact(), OrderDate: date.Format(time.RFC3339),
		PONum: fmt.Sprintf("#%d", 1001+i), Lines: lines,
	}
}

// slipNotes are the notes a few slips carry.
var slipNotes = []string{"Leave at the door", "Fragile: glass inside", "Gift: no prices on the slip", "Call before delivery"}

// ship packs the order on one slip a few hours to two days after it came,
// in one package or (a quarter of the time) two, and completes it. It is
// history: its stock left before the account's stock levels were set, so
// it opens no fulfillment and moves no stock.
func (sd *seeder) ship(t *txn, order int64, date time.Time) error {
	slipDate := date.Add(time.Duration(2+sd.rng.IntN(46)) * time.Hour)
	spec := SlipSpec{Order: itoa(order), Date: slipDate.Format(time.RFC3339)}
	if sd.rng.IntN(5) == 0 {
		spec.Notes = slipNotes[sd.rng.IntN(len(slipNotes))]
	}
	boxes := 1
	if sd.rng.IntN(4) == 0 {
		boxes = 2
	}
	for range boxes {
		spec.Packages = append(spec.Packages, sd.pkg(slipDate))
	}
	res, err := t.createSlip(sd.a.account, order, spec)
	if err != nil {
		return err
	}
	sd.out.Slips = append(sd.out.Slips, res.ID)
	sd.out.Packages = append(sd.out.Packages, res.Packages...)
	_, err = t.exec(`UPDATE orders SET state = 'complete' WHERE id = ?`, order)
	return err
}

// pkg is a shipment leaving up to a day after the slip, with a carrier's
// tracking number and link and a cost; delivered unless it left in the
// month's last four days.
func (sd *seeder) pkg(slipDate time.Time) PackageSpec {
	at := slipDate.Add(time.Duration(sd.rng.IntN(24*60)) * time.Minute)
	c := seedCarriers[sd.rng.IntN(len(seedCarriers))]
	number := c.number(sd.rng)
	cents := c.minCents + sd.rng.IntN(c.spreadCents)
	return PackageSpec{
		ShipDate: at.Format(time.RFC3339), Carrier: c.name, TrackingNumber: number, TrackingLink: c.link + number,
		Cost: fmt.Sprintf("%d.%02d", cents/100, cents%100), Delivered: at.Before(sd.end.Add(-96 * time.Hour)),
	}
}

// seedCarrier is a carrier with the shape of its tracking numbers, its
// tracking page and the range of its costs.
type seedCarrier struct {
	name, link, prefix    string
	digits                int
	minCents, spreadCents int
}

var seedCarriers = []seedCarrier{
	{"UPS", "https://www.ups.com/track?tracknum=", "1Z", 16, 795, 1800},
	{"USPS", "https://tools.usps.com/go/TrackConfirmAction?tLabels=", "9400", 18, 450, 900},
	{"USPS", "https://tools.usps.com/go/TrackConfirmAction?tLabels=", "9400", 18, 450, 900},
	{"FedEx", "https://www.fedex.com/fedextrack/?trknbr=", "", 12, 995, 2500},
	{"DHL", "https://www.dhl.com/global-en/home/tracking/tracking-express.html?tracking-id=", "", 10, 1495, 3000},
}

// number makes a tracking number: UPS's 1Z and 16 letters and digits,
// USPS's 22 digits, FedEx's 12, DHL's 10.
func (c seedCarrier) number(rng *rand.Rand) string {
	const digits, alnum = "0123456789", "0123456789ABCDEFGHJKLMNPRSTUVWXY"
	set := digits
	if c.name == "UPS" {
		set = alnum
	}
	b := []byte(c.prefix)
	for range c.digits {
		b = append(b, set[rng.IntN(len(set))])
	}
	return string(b)
}

// seedCustomer is a made-up customer with a postal address.
type seedCustomer struct {
	name, company, email, phone              string
	street, city, state, zip, country, isoCC string
}

func (c seedCustomer) address() map[string]string {
	return map[string]string{"contact": c.name, "company": c.company, "street1": c.street, "city": c.city,
		"state": c.state, "zip": c.zip, "country": c.country, "country_iso": c.isoCC}
}

func (c seedCustomer) contact() map[string]string {
	return map[string]string{"name": c.name, "email": c.email, "phone": c.phone}
}

var seedCustomers = []seedCustomer{
	{"Maria Alvarez", "", "maria.alvarez@example.com", "+1 512 555 0134", "4108 Speedway", "Austin", "TX", "78751", "United States", "US"},
	{"James O'Connor", "O'Connor Hardware", "james@oconnor.example", "+1 617 555 0199", "27 Tremont St", "Boston", "MA", "02108", "United States", "US"},
	{"Priya Natarajan", "", "priya.n@example.net", "+1 408 555 0172", "1650 Saratoga Ave", "San Jose", "CA", "95129", "United States", "US"},
	{"Chen Wei", "Lotus Tea House", "orders@lotustea.example", "+1 206 555 0110", "612 S Jackson St", "Seattle", "WA", "98104", "United States", "US"},
	{"Amara Okafor", "", "amara.okafor@example.org", "+1 404 555 0156", "880 Peachtree St NE", "Atlanta", "GA", "30309", "United States", "US"},
	{"Lukas Becker", "Becker & Söhne GmbH", "einkauf@becker.example", "+49 30 5550 1234", "Friedrichstraße 68", "Berlin", "", "10117", "Germany", "DE"},
	{"Sophie Martin", "", "sophie.martin@example.fr", "+33 1 55 50 12 34", "14 rue de Rivoli", "Paris", "", "75004", "France", "FR"},
	{"Daniel Kim", "Northwind Outfitters", "purchasing@northwind.example", "+1 303 555 0147", "1701 Wynkoop St", "Denver", "CO", "80202", "United States", "US"},
	{"Grace Thompson", "", "grace.t@example.com", "+1 312 555 0163", "233 S Wacker Dr", "Chicago", "IL", "60606", "United States", "US"},
	{"Mateo Rossi", "", "mateo.rossi@example.it", "+1 718 555 0121", "85 Bedford Ave, Apt 4B", "Brooklyn", "NY", "11211", "United States", "US"},
}
