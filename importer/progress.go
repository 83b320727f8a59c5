package importer

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress shows how an import goes, on stderr: a bar on a terminal, and a
// one-line summary every Interval otherwise. A nil *Progress shows nothing.
type Progress struct {
	w        io.Writer
	terminal bool
	interval time.Duration
	stats    func() (requests int64, rate float64)

	mu        sync.Mutex
	rows      int
	products  int
	records   int
	done      int
	failed    int
	batches   int
	start     time.Time
	lastLine  time.Time
	bar       *progressbar.ProgressBar
	stopTimer chan struct{}
}

// NewProgress reports to w (stderr). stats, if not nil, tells the requests
// sent and the current rate.
func NewProgress(w io.Writer, terminal bool, interval time.Duration, stats func() (int64, float64)) *Progress {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	now := time.Now()
	return &Progress{w: w, terminal: terminal, interval: interval, stats: stats, start: now, lastLine: now}
}

func (p *Progress) readRows(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows = n
	if !p.terminal && time.Since(p.lastLine) >= p.interval {
		p.lastLine = time.Now()
		fmt.Fprintf(p.w, "reading: %d rows\n", n)
	}
}

func (p *Progress) readDone(rows, products int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows, p.products = rows, products
	fmt.Fprintf(p.w, "read %d rows: %d products\n", rows, products)
}

func (p *Progress) planned(batches, records int) {
	if p == nil || records == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.batches, p.records, p.done, p.failed = batches, records, 0, 0
	if p.terminal {
		p.bar = progressbar.NewOptions(records,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(fmt.Sprintf("writing %d products", p.products)),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("records"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		return
	}
	fmt.Fprintf(p.w, "writing %d records in %d requests\n", records, batches)
	if p.stopTimer == nil {
		p.stopTimer = make(chan struct{})
		go p.tick(p.stopTimer)
	}
}

func (p *Progress) tick(stop chan struct{}) {
	t := time.NewTicker(p.interval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			p.line()
		}
	}
}

// line prints the one-line summary.
func (p *Progress) line() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var reqs int64
	var rate float64
	if p.stats != nil {
		reqs, rate = p.stats()
	}
	eta := "?"
	if p.done > 0 && p.done < p.records {
		el := time.Since(p.start)
		eta = (time.Duration(float64(el) / float64(p.done) * float64(p.records-p.done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "progress: %d/%d records written (%d failed), %d requests, %.1f req/s, eta %s\n",
		p.done, p.records, p.failed, reqs, rate, eta)
}

func (p *Progress) sent(records int, ok bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.done += records
	if !ok {
		p.failed += records
	}
	bar, products := p.bar, p.products
	p.mu.Unlock()
	if bar != nil {
		if p.stats != nil {
			reqs, rate := p.stats()
			bar.Describe(fmt.Sprintf("%d products: %d requests at %.1f/s", products, reqs, rate))
		}
		bar.Add(records)
	}
}

// Finish stops the periodic summary and clears the bar.
func (p *Progress) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopTimer != nil {
		close(p.stopTimer)
		p.stopTimer = nil
	}
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
