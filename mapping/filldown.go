package mapping

import "strings"

// fill is group.key's fill_down as the rows of a file are evaluated in
// order: the product that the rows without a key belong to, the one whose
// key the nearest row above them gives.
type fill struct {
	// pc are the columns product() reads, nil when no expression calls
	// it; cells are their cells on the row that gave the key.
	pc    *productCells
	cells []string
	key   string
	state fillState
	// skip is the reason a skip rule skipped the row that gave the key:
	// the rows below it are skipped with it.
	skip string
}

// fillState says what the rows above gave as the key.
type fillState uint8

const (
	fillNone fillState = iota // no row above gives a key
	fillKey                   // key is the key of the rows below
	fillBad                   // the last row that gave a key gave an invalid one
)

// newFill binds product() in the sections of m that read the row that
// gives the key: skip, variant, options and tiers.
func newFill(b *binder, m *Mapping) *fill {
	f := &fill{pc: productColumns(b, productRefs(m, m.Skip, "skip when"))}
	if f.pc != nil {
		f.cells = make([]string, len(f.pc.cols))
	}
	return f
}

// productCells is what product() reads in f's program; nil without
// fill_down.
func (f *fill) productCells() *productCells {
	if f == nil {
		return nil
	}
	return f.pc
}

// Messages of a row that takes its key from the rows above it and gets
// none.
const (
	fillNoKey  = "every row needs a product key: a row without one belongs to the product of the row above it (fill_down), and no row above it gives a key"
	fillBadKey = "every row needs a product key: a row without one belongs to the product of the row above it (fill_down), and the row above it that gives the key gives an invalid one, or could not be read (see that row)"
)

// Unreadable tells p that the file's next row could not be read at all
// (the file reader gave no cells of it), so that under group.key's
// fill_down the rows below it that give no key, whose product it may
// have been, are errors instead of rows of the product above it. Without
// fill_down it does nothing.
func (p *Program) Unreadable() {
	if f := p.fill; f != nil {
		f.state, f.key, f.skip = fillBad, "", ""
		clear(f.cells)
	}
}

// fillKey evaluates the key of a row under fill_down, with the skip rules
// (whose product() reads the row that gives the key, so the key comes
// first). A row with a key gives it to the rows below it; a row without
// one takes the key of the row above it that gave one (filled), and is
// skipped with that row when a skip rule skipped it. done is true when
// the row is skipped.
func (p *Program) fillKey(row []string, out *Row) (filled, done bool) {
	f := p.fill
	n := len(out.Errors)
	key := p.text(p.key, row, out)
	bad := len(out.Errors) > n
	filled = key == "" && !bad
	if !filled {
		f.state, f.key, f.skip = fillKey, strings.Clone(key), ""
		if bad {
			f.state, f.key = fillBad, ""
		}
		if f.pc != nil {
			f.cells = f.pc.cellsOf(row, f.cells)
		}
	}
	p.run.Product(f.cells)
	if p.skipped(row, out) {
		out.Errors = out.Errors[:0] // a skipped row's key does not matter
		if !filled {
			f.skip = strings.Clone(out.SkipReason)
		}
		return filled, true
	}
	if filled {
		switch {
		case f.skip != "":
			out.Skip, out.SkipReason = true, "it belongs to the product of the row above it, which is skipped: "+f.skip
			return filled, true
		case f.state == fillKey:
			key = f.key
		case f.state == fillBad:
			p.required(p.key, out, fillBadKey)
		default:
			p.required(p.key, out, fillNoKey)
		}
	}
	out.GroupKey = key
	return filled, false
}

// ownVariant evaluates, on a "product_or_both" row, the variant the
// product has when no other row gives it one: its values' errors count
// only then (out.AloneErrors).
func (p *Program) ownVariant(row []string, out *Row) {
	out.Alone = true
	n := len(out.Errors)
	p.variant(row, out)
	out.AloneErrors = append(out.AloneErrors, out.Errors[n:]...)
	out.Errors = out.Errors[:n]
}
