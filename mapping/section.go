package mapping

import "lading/mapping/cell"

// Skipping is what an evaluated row of a fixed-schema section (stock,
// shipments, slips) says of its skip rules.
type Skipping struct {
	// Skip is set when a skip rule matched; SkipReason says why. Only the
	// values that name the row are filled then, for its results line.
	Skip       bool
	SkipReason string
}

// Skipped reports whether a skip rule matched the row, and why.
func (s *Skipping) Skipped() (bool, string) { return s.Skip, s.SkipReason }

// section is what the programs of the fixed-schema sections (stock,
// shipments, slips) share: the main file's source settings, skip rules
// and expression machine bound to a header, and the Row the value
// helpers report a row's errors into.
type section struct {
	p       Program
	scratch Row
}

// compileSection binds the source settings and the skip rules of m to
// the header of file, and the section's own values with bind.
func (m *Mapping) compileSection(file string, header []string, bind func(b *binder)) (section, error) {
	b := newBinder(m, file, header, m.Source)
	s := section{p: Program{m: m, header: b.header, dec: decimalOf(m.Source), layouts: cell.Layouts(m.Source.DateFormats),
		formats: m.Source.DateFormats}}
	s.p.skip = b.skips(m.Skip)
	bind(b)
	if len(b.errs) > 0 {
		return section{}, b.mismatch()
	}
	return s, nil
}

// Header returns the header the program is bound to (trimmed).
func (s *section) Header() []string { return s.p.header }

// clone is s with its own evaluation state, sharing the compiled
// expressions.
func (s *section) clone() section {
	return section{p: *s.p.Clone()}
}

// eval evaluates one row around fill: it binds the row to the expression
// machine, tries the skip rules first and collects the row's errors in
// *errs (whose slice it reuses). A skipped row's fill still runs, with
// skipped set, to fill in what names the row in its results line; its
// errors are dropped (a skipped row's values are not checked). It
// returns nil, or the row's errors.
func (s *section) eval(row []string, errs *RowErrors, skip *Skipping, fill func(r *Row, skipped bool)) error {
	p, r := &s.p, &s.scratch
	p.run.Row(row)
	r.Errors = (*errs)[:0]
	defer func() {
		r.Errors = nil
		p.run.Done()
	}()
	if p.skipped(row, r) {
		why := r.SkipReason
		r.Skip, r.SkipReason = false, ""
		fill(r, true)
		*errs, skip.Skip, skip.SkipReason = r.Errors[:0], true, why
		return nil
	}
	fill(r, false)
	if *errs = r.Errors; len(*errs) > 0 {
		return *errs
	}
	return nil
}
