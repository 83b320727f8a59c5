package ops

import (
	"fmt"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// When a job runs next, from what the state remembers of its runs: a
// run that never ended at once, an interval after the last start, a
// schedule's next time in its zone after the last start (or after the job
// was first seen), a missed time caught up once.
func TestNext(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	monthly, err := cron.ParseStandard("0 6 1 * *")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)
	every := &Job{Every: 15 * time.Minute}
	export := &Job{Schedule: "0 6 1 * *", Zone: berlin, cron: monthly}
	folder := &Job{Folder: "/srv/in", Every: 10 * time.Second}
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	onTurn := turn(every, ago(20*time.Minute))
	for _, tc := range []struct {
		name  string
		job   *Job
		times Times
		want  time.Time
	}{
		{"never ran: now", every, Times{Seen: ago(time.Hour)}, now},
		{"ran on its turn: its next turn, an interval later", every, Times{Started: onTurn, Ended: onTurn.Add(time.Minute)}, onTurn.Add(15 * time.Minute)},
		{"killed during its run: now", every, Times{Started: ago(5 * time.Minute), Ended: ago(20 * time.Minute)}, now},
		{"schedule first seen today: the 1st of next month, 6:00 in Berlin", export, Times{Seen: ago(time.Hour)},
			time.Date(2026, 12, 1, 6, 0, 0, 0, berlin)},
		{"schedule last run on the 1st: the next 1st", export, Times{Seen: ago(60 * 24 * time.Hour), Started: time.Date(2026, 11, 1, 6, 0, 0, 0, berlin), Ended: time.Date(2026, 11, 1, 6, 1, 0, 0, berlin)},
			time.Date(2026, 12, 1, 6, 0, 0, 0, berlin)},
		{"schedule seen 40 days ago and never run: the missed 1st, at once", export, Times{Seen: ago(40 * 24 * time.Hour)},
			time.Date(2026, 11, 1, 6, 0, 0, 0, berlin)},
		{"schedule in summer time: 6:00 is 4:00 UTC", export, Times{Seen: time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)},
			time.Date(2026, 7, 1, 4, 0, 0, 0, time.UTC)},
		{"a folder looks all the time", folder, Times{Started: ago(time.Second), Ended: ago(0)}, now},
	} {
		if got := tc.job.Next(tc.times, now); !got.Equal(tc.want) {
			t.Errorf("%s: Next = %s, want %s", tc.name, got.UTC(), tc.want.UTC())
		}
	}
	if d := export.Interval(now); d != 31*24*time.Hour {
		t.Errorf("the monthly schedule's interval in December: %s, want 31 days", d)
	}
}

// turn is j's turn at or after t.
func turn(j *Job, t time.Time) time.Time { return j.turnAfter(t.Add(-1)) }

// A job run every interval runs at its own moment in the interval: about
// an interval after its last start (half to one and a half), the same
// moment on every start, and the jobs of 200 accounts spread through the
// interval. A turn missed while lading was not running is due at once.
func TestTurnsSpreadThroughTheInterval(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC)
	seconds := map[int]int{}
	for i := range 200 {
		j := &Job{Account: fmt.Sprintf("acc%03d", i), Name: "stock push", Every: time.Minute}
		for _, last := range []time.Time{now.Add(-50 * time.Second), now.Add(-20 * time.Second), now.Add(-1234 * time.Millisecond)} {
			next := j.Next(Times{Started: last, Ended: last.Add(time.Second)}, now)
			if next.Sub(last) < 30*time.Second || next.Sub(last) > 90*time.Second {
				t.Fatalf("%s, last run %s: next %s, not half to one and a half intervals after", j.Account, last, next)
			}
			if next.Sub(turn(j, next.Add(-time.Minute))) != time.Minute {
				t.Fatalf("%s: turns not an interval apart", j.Account)
			}
		}
		seconds[turn(j, now).Second()]++
	}
	if len(seconds) < 45 {
		t.Errorf("the turns of 200 accounts fall on %d of the minute's 60 seconds: %v", len(seconds), seconds)
	}
	j := &Job{Account: "acme", Name: "stock push", Every: time.Minute}
	if last := now.Add(-time.Hour); !j.Next(Times{Started: last, Ended: last}, now).Before(now) {
		t.Error("a turn missed an hour ago is not due")
	}
}
