package progress_test

import (
	"strings"
	"testing"
	"time"

	"lading/internal/syncbuf"
	"lading/progress"
)

// Off a terminal the job says what it will write, then a summary line at
// each interval.
func TestLinesOffTerminal(t *testing.T) {
	var buf syncbuf.Buffer
	p := progress.New(&buf, false, 5*time.Millisecond, func() (int64, float64) { return 7, 2.5 })
	p.Say("read %d rows: %d products", 10, 3)
	p.Writing("writing 3 products", 10, 2, "level")
	p.Sent(4, true)
	p.Sent(2, false)
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(buf.String(), "progress: 6/10 levels written (2 failed), 7 requests, 2.5 req/s") {
		if time.Now().After(deadline) {
			t.Fatalf("no summary line within 2 s; got:\n%s", buf.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.Finish()
	p.Finish()
	out := buf.String()
	for _, want := range []string{"read 10 rows: 3 products\n", "writing 10 levels in 2 requests\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A nil Progress is silent and safe, so libraries call it unchecked.
func TestNilProgress(t *testing.T) {
	var p *progress.Progress
	p.Reading(3)
	p.Say("x")
	p.Writing("w", 1, 1, "record")
	p.Sent(1, true)
	p.Finish()
}

// A watcher is told every change as a snapshot of the same counts the
// summary line prints, with the time left at the pace of what was written.
func TestWatch(t *testing.T) {
	var buf syncbuf.Buffer
	p := progress.New(&buf, false, time.Hour, func() (int64, float64) { return 3, 1.5 })
	var got []progress.Snapshot
	p.Watch(func(s progress.Snapshot) { got = append(got, s) })
	p.Reading(120)
	p.Say("read %d rows: %d products", 120, 30)
	p.Writing("writing 30 products", 30, 3, "record")
	p.Sent(10, true)
	p.Sent(5, false)
	p.Finish()
	if len(got) != 5 {
		t.Fatalf("got %d snapshots, want one for each of the 5 changes: %+v", len(got), got)
	}
	if got[0].Rows != 120 || got[1].Said != "read 120 rows: 30 products" {
		t.Errorf("reading: got %+v then %+v", got[0], got[1])
	}
	last := got[4]
	if last.What != "writing 30 products" || last.Unit != "record" || last.Total != 30 || last.Done != 15 || last.Failed != 5 ||
		last.Requests != 3 || last.Rate != 1.5 || last.Rows != 120 {
		t.Errorf("last snapshot: %+v", last)
	}
	if got[2].ETA != 0 {
		t.Errorf("ETA before anything was written: %s, want 0 (unknown)", got[2].ETA)
	}
	if last.ETA <= 0 || last.ETA > last.Elapsed+time.Second {
		t.Errorf("ETA with 15 of 30 written: %s, want about the time they took (elapsed %s)", last.ETA, last.Elapsed)
	}
}
