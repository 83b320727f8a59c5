package engine

// Pusher is a push (of stock, shipments, slips) made once and run again
// and again with the same options, on a schedule: it holds its options,
// checked, and the locks it takes from run to run until Close, so that no
// other push of the account runs meanwhile.
type Pusher[O any] struct {
	Opts  O
	Locks Locks
}

// Close lets go of the push's locks.
func (p *Pusher[O]) Close() { p.Locks.Close() }

// NewPusher checks a push's options (job names it in errors, batch is its
// batch size when none is given; see Options.Check).
func NewPusher[O any, PO interface {
	*O
	Base() *Options
}](o O, job string, batch int) (*Pusher[O], error) {
	base := PO(&o).Base()
	if err := base.Check(job, batch, true); err != nil {
		return nil, err
	}
	return &Pusher[O]{Opts: o, Locks: Locks{State: base.State}}, nil
}
