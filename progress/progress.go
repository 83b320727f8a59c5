// Package progress shows how a long job goes, on stderr: a bar on a
// terminal, and elsewhere (cron, a log file) a one-line summary at an
// interval. Every job shares it; a watcher (the web page of lading ui) is
// told each change as a Snapshot of the same counts.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"lading/plural"
)

// Progress reports one job. A nil *Progress shows nothing, so a library
// calls its methods without checking.
type Progress struct {
	w        io.Writer
	terminal bool
	interval time.Duration
	stats    func() (requests int64, rate float64)

	mu        sync.Mutex
	rows      int
	unit      string // what is written: "record", "level"
	what      string // the bar's description
	total     int
	done      int
	failed    int
	said      string // the last line Say printed
	start     time.Time
	writing   time.Time // when the count of units to write started
	lastLine  time.Time
	bar       *progressbar.ProgressBar
	stopTimer chan struct{}
	watch     func(Snapshot)
}

// Snapshot is how a job stands: the rows read, then the units written of
// those to write, with the requests sent and the time left at the pace so
// far.
type Snapshot struct {
	// Rows is how many rows of the input were read so far.
	Rows int `json:"rows"`
	// Said is the last line the job said ("read 120 rows: 30 products").
	Said string `json:"said,omitempty"`
	// What describes the writing ("writing 30 products"); Unit is what is
	// counted ("record", "level"); Done of Total were answered, Failed of
	// them refused. All zero before the job writes.
	What   string `json:"what,omitempty"`
	Unit   string `json:"unit,omitempty"`
	Total  int    `json:"total"`
	Done   int    `json:"done"`
	Failed int    `json:"failed"`
	// Requests is how many requests the job's client sent, at Rate a
	// second now.
	Requests int64   `json:"requests"`
	Rate     float64 `json:"rate"`
	// Elapsed is the time since the job started; ETA the time left for
	// the units still to write at the pace of those written, 0 when it
	// cannot be told yet (none written, or all).
	Elapsed time.Duration `json:"elapsed_ns"`
	ETA     time.Duration `json:"eta_ns"`
}

// Watch has fn told a Snapshot at every change (a row count, a line said,
// units written), in the goroutine that made it, one call at a time. It
// is meant to be set once, before the job starts.
func (p *Progress) Watch(fn func(Snapshot)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.watch = fn
}

// snapshot is the Snapshot of p; p.mu is held.
func (p *Progress) snapshot() Snapshot {
	s := Snapshot{Rows: p.rows, Said: p.said, What: p.what, Unit: p.unit, Total: p.total, Done: p.done, Failed: p.failed,
		Elapsed: time.Since(p.start)}
	if p.stats != nil {
		s.Requests, s.Rate = p.stats()
	}
	if p.done > 0 && p.done < p.total {
		el := time.Since(p.writing)
		s.ETA = time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
	}
	return s
}

// notify tells the watcher the snapshot of p; p.mu is held.
func (p *Progress) notify() {
	if p.watch != nil {
		p.watch(p.snapshot())
	}
}

// New reports to w (stderr): a bar when terminal is true, else a line
// every interval (10 s when 0). stats, if not nil, tells the requests sent
// and the current request rate.
func New(w io.Writer, terminal bool, interval time.Duration, stats func() (int64, float64)) *Progress {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	now := time.Now()
	return &Progress{w: w, terminal: terminal, interval: interval, stats: stats, start: now, lastLine: now}
}

// Reading tells how many rows of the input were read so far; off a
// terminal it prints a line at most once an interval.
func (p *Progress) Reading(rows int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows = rows
	p.notify()
	if !p.terminal && time.Since(p.lastLine) >= p.interval {
		p.lastLine = time.Now()
		fmt.Fprintf(p.w, "reading: %s\n", plural.Count(rows, "row"))
	}
}

// Say prints a line, like "read 120 rows: 30 products".
func (p *Progress) Say(format string, args ...any) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.said = fmt.Sprintf(format, args...)
	fmt.Fprintln(p.w, p.said)
	p.notify()
}

// Writing starts the count of total units (unit: "record", "level") to
// write in requests; what describes the job on the bar ("writing 30
// products"). It may be called again for a later round.
func (p *Progress) Writing(what string, total, requests int, unit string) {
	if p == nil || total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.what, p.total, p.unit, p.done, p.failed, p.writing = what, total, unit, 0, 0, time.Now()
	p.notify()
	if p.terminal {
		if p.bar != nil {
			p.bar.Finish()
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString(plural.Of(2, unit)),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
		return
	}
	fmt.Fprintf(p.w, "writing %s in %s\n", plural.Count(total, unit), plural.Count(requests, "request"))
	if p.stopTimer == nil {
		p.stopTimer = make(chan struct{})
		go p.tick(p.stopTimer)
	}
}

// Sent counts n units answered, failed or not.
func (p *Progress) Sent(n int, ok bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.done += n
	if !ok {
		p.failed += n
	}
	p.notify()
	bar, what := p.bar, p.what
	p.mu.Unlock()
	if bar != nil {
		if p.stats != nil {
			reqs, rate := p.stats()
			bar.Describe(fmt.Sprintf("%s: %d requests at %.1f/s", what, reqs, rate))
		}
		bar.Add(n)
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
	s := p.snapshot()
	eta := "?"
	if s.ETA > 0 {
		eta = s.ETA.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "progress: %d/%s written (%d failed), %s, %.1f req/s, eta %s\n",
		s.Done, plural.Count(s.Total, s.Unit), s.Failed, plural.Count(s.Requests, "request"), s.Rate, eta)
}

// Finish stops the periodic summary and clears the bar. It may be called
// more than once.
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
