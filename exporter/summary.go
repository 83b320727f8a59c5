package exporter

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"lading/exporter/sheet"
)

// The summary sheet of a packing slips report (Report.Summary) sums the
// period up for an accountant: slips, units and shipping cost by month (of
// the slip's date, in the report's zone) and by status, void slips apart;
// by carrier, with the shipments; and the shipping cost by month and
// carrier, drawn as a stacked column chart.
//
// By month and by status are COUNTIFS and SUMIFS formulas over the Slips
// sheet, each with the value lading computed: an accountant who corrects
// or deletes a slip there sees them follow, and the Slips sheet's totals
// are the by-status totals. At 100,000 slips their 51 formulas added about
// a second to LibreOffice's opening of the workbook with every formula
// recalculated (2.9-3.2 s against 1.3-2.4 s with values; Excel keeps the
// values until it recalculates). By carrier and by month and carrier are
// values: a carrier is a shipment's, while the month and void are its
// slip's, and a formula joining each shipment row to its slip row
// (SUMPRODUCT over COUNTIFS) took 10 s at 5,000 rows and 30 s at 10,000 in
// LibreOffice, growing with the square of the rows: near an hour at
// 100,000. When the Slips sheet lacks a column a formula needs (a report
// of the user's), that table is values too.

// Labels of the summary's rows.
const (
	noDate     = "No date"
	noStatus   = "No status"
	voidStatus = "Void"
	noShipment = "No shipment"
	noCarrier  = "Carrier not given"
)

// figures add up slips.
type figures struct {
	slips       int
	units, cost float64
}

func (f *figures) add(units, cost float64) {
	f.slips++
	f.units += units
	f.cost += cost
}

// carrierFigures are a carrier's: the slips it carried a parcel of (and
// their units), its parcels and their cost.
type carrierFigures struct {
	figures
	shipments int
	parcels   float64 // the parcels' cost
}

// parcel is a shipment of a slip whose row has not come yet.
type parcel struct {
	carrier string
	cost    float64
}

// slipTally adds up the slips of an export as their rows are written:
// each slip's shipments come before the slip's own row (slipRowsOf).
type slipTally struct {
	loc      *time.Location
	pending  map[string][]parcel // by slip id
	all      figures             // the slips not void
	void     figures
	months   map[string]*figures // by "2006-01", noDate
	statuses map[string]*figures // by status in lower case, of the slips not void
	names    map[string]string   // the status as first written, by its lower case
	carriers map[string]*carrierFigures
	cost     map[[2]string]float64 // by month and carrier
}

func newSlipTally(loc *time.Location) *slipTally {
	return &slipTally{loc: loc, pending: map[string][]parcel{}, months: map[string]*figures{}, statuses: map[string]*figures{},
		names: map[string]string{}, carriers: map[string]*carrierFigures{}, cost: map[[2]string]float64{}}
}

// The fields the tally reads.
var (
	slipFields     = slipEntities[entSlips]
	shipmentFields = slipEntities[entShipments]
	fSlipID        = slipFields.index("id")
	fSlipDate      = slipFields.index("packing_slip_date")
	fStatus        = slipFields.index("status")
	fVoid          = slipFields.index("void")
	fUnits         = slipFields.index("units")
	fShippingCost  = slipFields.index("shipping_cost")
	fShipmentSlip  = shipmentFields.index("slip_id")
	fCarrier       = shipmentFields.index("carrier")
	fShipmentCost  = shipmentFields.index("cost")
)

// add takes a row of the export, as table.add does.
func (t *slipTally) add(ent int, row []string) {
	switch ent {
	case entShipments:
		cost, _ := sheet.NumberOf(row[fShipmentCost], sheet.Money)
		id := row[fShipmentSlip]
		t.pending[id] = append(t.pending[id], parcel{carrier: cmp.Or(row[fCarrier], noCarrier), cost: cost})
	case entSlips:
		parcels := t.pending[row[fSlipID]]
		delete(t.pending, row[fSlipID])
		units, _ := sheet.NumberOf(row[fUnits], sheet.Number)
		cost, _ := sheet.NumberOf(row[fShippingCost], sheet.Money)
		if void, _ := sheet.NumberOf(row[fVoid], sheet.Integer); void == 1 {
			t.void.add(units, cost)
			return
		}
		t.all.add(units, cost)
		month := noDate
		if day, ok := sheet.Day(row[fSlipDate], t.loc); ok {
			month = day.Format("2006-01")
		}
		grow(t.months, month).add(units, cost)
		key := strings.ToLower(row[fStatus])
		if _, ok := t.names[key]; !ok {
			t.names[key] = row[fStatus]
		}
		grow(t.statuses, key).add(units, cost)
		t.addParcels(month, units, parcels)
	}
}

// addParcels counts a slip under each carrier of its parcels (under
// noShipment when it has none), and each parcel's cost under its carrier.
func (t *slipTally) addParcels(month string, units float64, parcels []parcel) {
	if len(parcels) == 0 {
		grow(t.carriers, noShipment).add(units, 0)
		return
	}
	seen := map[string]bool{}
	for _, p := range parcels {
		c := grow(t.carriers, p.carrier)
		if !seen[p.carrier] {
			seen[p.carrier] = true
			c.add(units, 0)
		}
		c.shipments++
		c.parcels += p.cost
		t.cost[[2]string{month, p.carrier}] += p.cost
	}
}

func grow[T any](m map[string]*T, key string) *T {
	v, ok := m[key]
	if !ok {
		v = new(T)
		m[key] = v
	}
	return v
}

// slipColumns are the columns of the Slips sheet the formulas read (-1
// where the sheet has none fit), and its rows.
type slipColumns struct {
	sheet                           string
	rows                            int
	date, status, void, units, cost int
}

// findSlipColumns finds the first sheet of slips in layout that holds
// every slip, and the columns in it of the fields the formulas read, with
// the kinds they need. ok is false when there is no such sheet.
func findSlipColumns(layout []layoutSheet, counts []int) (slipColumns, bool) {
	i := slices.IndexFunc(layout, func(ls layoutSheet) bool { return ls.entity == entSlips && ls.only < 0 })
	if i < 0 {
		return slipColumns{}, false
	}
	ls := layout[i]
	col := func(field int, fits func(sheet.Kind) bool) int {
		for c, f := range ls.from {
			if f == field && fits(ls.sheet.Columns[c].Kind) {
				return c
			}
		}
		return -1
	}
	isDate := func(k sheet.Kind) bool { return k == sheet.Date }
	isText := func(k sheet.Kind) bool { return k == sheet.Text }
	return slipColumns{sheet: ls.sheet.Name, rows: counts[i], date: col(fSlipDate, isDate), status: col(fStatus, isText),
		void: col(fVoid, numericKind), units: col(fUnits, numericKind), cost: col(fShippingCost, numericKind)}, true
}

func (c slipColumns) ref(col int) string { return sheet.DataRange(c.sheet, col, c.rows) }

// formulas reports whether the Slips sheet has the columns of a table's
// formulas: the void flag, units, cost and key.
func (c slipColumns) formulas(key int) bool {
	return c.sheet != "" && key >= 0 && c.void >= 0 && c.units >= 0 && c.cost >= 0
}

// cells are the Slips, Units and Shipping cost cells of f, with the
// formulas over the Slips sheet of the slips crit chooses when crit is
// given.
func (c slipColumns) cells(f *figures, crit string) []sheet.Cell {
	cells := []sheet.Cell{{Value: strconv.Itoa(f.slips)}, {Value: num(round(f.units))}, {Value: money(f.cost)}}
	if crit != "" {
		cells[0].Formula = "COUNTIFS(" + crit + ")"
		cells[1].Formula = "SUMIFS(" + c.ref(c.units) + "," + crit + ")"
		cells[2].Formula = "SUMIFS(" + c.ref(c.cost) + "," + crit + ")"
	}
	return cells
}

// round drops the binary residue of a sum of decimals.
func round(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// summary is the summary sheet of the slips tallied, whose rows went into
// the sheets of layout, counts[i] into sheet i.
func (t *slipTally) summary(o sheet.Options, layout []layoutSheet, counts []int) sheet.Summary {
	zone := "UTC"
	if t.loc != nil {
		zone = t.loc.String()
	}
	s := sheet.Summary{Lines: []string{o.Title, capitalize(o.Subject)}}
	if o.Account != "" {
		s.Lines = append(s.Lines, "Account "+o.Account+". Months are those of the slips' dates, in "+zone+".")
	}
	if t.all.slips+t.void.slips == 0 {
		s.Lines = append(s.Lines, "No packing slips meet these conditions.")
		return s
	}
	s.Lines = append(s.Lines, "Void slips are left out of the months and carriers, and counted apart by status.",
		"By month and by status follow the slips sheet when it is edited; by carrier and the chart are the figures as exported.")
	cols, _ := findSlipColumns(layout, counts)
	s.Tables = []sheet.Table{t.byMonth(cols), t.byCarrier(), t.byStatus(cols), t.byMonthAndCarrier()}
	s.Chart = &sheet.Chart{Title: "Shipping cost by month and carrier", Table: 3}
	for i := range len(s.Tables[3].Columns) - 2 {
		s.Chart.Series = append(s.Chart.Series, i+1)
	}
	return s
}

// capitalize puts a capital first.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var slipsUnitsCost = []sheet.Column{{Header: "Slips", Kind: sheet.Integer}, {Header: "Units", Kind: sheet.Number}, {Header: "Shipping cost", Kind: sheet.Money}}

// sums is a totals row of sums under the columns after the first.
func sums(n int) []sheet.Cell {
	row := make([]sheet.Cell, n)
	for i := 1; i < n; i++ {
		row[i].Sum = true
	}
	return row
}

func (t *slipTally) byMonth(c slipColumns) sheet.Table {
	tb := sheet.Table{Title: "By month", Columns: append([]sheet.Column{{Header: "Month"}}, slipsUnitsCost...), Total: sums(4)}
	for _, m := range sortedKeys(t.months) {
		crit := ""
		label := noDate
		if m != noDate {
			from, _ := time.Parse("2006-01", m)
			to := from.AddDate(0, 1, 0)
			label = from.Format("January 2006")
			if c.formulas(c.date) {
				date := c.ref(c.date)
				crit = fmt.Sprintf(`%s,">="&DATE(%d,%d,1),%s,"<"&DATE(%d,%d,1),%s,"<>1"`,
					date, from.Year(), from.Month(), date, to.Year(), to.Month(), c.ref(c.void))
			}
		}
		tb.Rows = append(tb.Rows, append([]sheet.Cell{{Value: label}}, c.cells(t.months[m], crit)...))
	}
	return tb
}

func (t *slipTally) byStatus(c slipColumns) sheet.Table {
	tb := sheet.Table{Title: "By status", Columns: append([]sheet.Column{{Header: "Status"}}, slipsUnitsCost...), Total: sums(4),
		Note: "The total counts every slip, void ones too: the Slips sheet's totals."}
	for _, key := range sortedKeys(t.statuses) {
		crit := ""
		if c.formulas(c.status) {
			crit = c.ref(c.status) + `,"` + criterion(t.names[key]) + `",` + c.ref(c.void) + `,"<>1"`
		}
		tb.Rows = append(tb.Rows, append([]sheet.Cell{{Value: cmp.Or(t.names[key], noStatus)}}, c.cells(t.statuses[key], crit)...))
	}
	crit := ""
	if c.formulas(c.void) {
		crit = c.ref(c.void) + ",1"
	}
	tb.Rows = append(tb.Rows, append([]sheet.Cell{{Value: voidStatus}}, c.cells(&t.void, crit)...))
	return tb
}

// criterion is a COUNTIFS criterion, within a formula's quotes, that a
// cell is text: exactly text, its wildcards and quotes escaped; "=" (an
// empty cell, in Excel, LibreOffice and excelize alike) for "".
func criterion(text string) string {
	if text == "" {
		return "="
	}
	r := strings.NewReplacer(`~`, `~~`, `*`, `~*`, `?`, `~?`, `"`, `""`)
	return "=" + r.Replace(text)
}

func (t *slipTally) byCarrier() sheet.Table {
	tb := sheet.Table{Title: "By carrier", Columns: []sheet.Column{{Header: "Carrier"}, {Header: "Slips", Kind: sheet.Integer},
		{Header: "Units", Kind: sheet.Number}, {Header: "Shipments", Kind: sheet.Integer}, {Header: "Shipping cost", Kind: sheet.Money}},
		Note: "A slip sent with two carriers counts under each; the total counts it once."}
	for _, name := range sortedKeys(t.carriers) {
		c := t.carriers[name]
		tb.Rows = append(tb.Rows, []sheet.Cell{{Value: name}, {Value: strconv.Itoa(c.slips)}, {Value: num(round(c.units))},
			{Value: strconv.Itoa(c.shipments)}, {Value: money(c.parcels)}})
	}
	tb.Total = []sheet.Cell{{}, {Value: strconv.Itoa(t.all.slips)}, {Value: num(round(t.all.units))}, {Sum: true}, {Sum: true}}
	return tb
}

func (t *slipTally) byMonthAndCarrier() sheet.Table {
	carriers := slices.Sorted(maps.Keys(t.carriers))
	carriers = slices.DeleteFunc(carriers, func(c string) bool { return c == noShipment })
	tb := sheet.Table{Title: "Shipping cost by month and carrier", Columns: []sheet.Column{{Header: "Month"}}, Total: sums(len(carriers) + 2)}
	for _, c := range carriers {
		tb.Columns = append(tb.Columns, sheet.Column{Header: c, Kind: sheet.Money})
	}
	tb.Columns = append(tb.Columns, sheet.Column{Header: "Total", Kind: sheet.Money})
	for _, m := range sortedKeys(t.months) {
		label := noDate
		if from, err := time.Parse("2006-01", m); err == nil {
			label = from.Format("January 2006")
		}
		row, total := []sheet.Cell{{Value: label}}, 0.0
		for _, c := range carriers {
			v := t.cost[[2]string{m, c}]
			total += v
			row = append(row, sheet.Cell{Value: money(v)})
		}
		tb.Rows = append(tb.Rows, append(row, sheet.Cell{Value: money(total)}))
	}
	return tb
}

// sortedKeys are the keys of m in order, noDate, noStatus's "" and
// noShipment last.
func sortedKeys[T any](m map[string]*T) []string {
	keys := slices.Collect(maps.Keys(m))
	last := func(k string) bool { return k == noDate || k == "" || k == noShipment }
	slices.SortFunc(keys, func(a, b string) int {
		if la, lb := last(a), last(b); la != lb {
			if la {
				return 1
			}
			return -1
		}
		return cmp.Compare(a, b)
	})
	return keys
}
