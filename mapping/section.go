package mapping

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

// section evaluates one row of a fixed-schema section (stock, shipments,
// slips) around eval: it binds the row to the expression environment,
// collects the row's errors in r (starting from errs[:0], the caller's
// slice to reuse) and tries the skip rules first. A skipped row's eval
// still runs, with skipped set, to fill in what names the row in its
// results line; its errors are dropped (a skipped row's values are not
// checked). It returns the row's errors, and whether and why a skip rule
// matched.
func (p *Program) section(row []string, r *Row, errs RowErrors, eval func(r *Row, skipped bool)) (RowErrors, bool, string) {
	p.run.Row(row)
	r.Errors = errs[:0]
	defer func() {
		r.Errors = nil
		p.run.Done()
	}()
	if p.skipped(row, r) {
		why := r.SkipReason
		r.Skip, r.SkipReason = false, ""
		eval(r, true)
		return r.Errors[:0], true, why
	}
	eval(r, false)
	return r.Errors, false, ""
}

// result is Eval's error: nil, or the row's errors.
func result(errs RowErrors) error {
	if len(errs) > 0 {
		return errs
	}
	return nil
}
