package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"lading/state"
)

// Times are what an account's state remembers of a job's runs, so that a
// runner started again (after a restart, a kill, or as a cron job with
// --once) knows which jobs are due.
type Times struct {
	// Seen is when a runner first had the job: a schedule's first turn is
	// the first after it.
	Seen time.Time `json:"seen"`
	// Started is when the last run started, Ended when it ended (before
	// Started: it never ended, it was killed or stopped), Success when
	// the last run that did its work (even with some rows failed) ended.
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
	Success time.Time `json:"success,omitzero"`
}

// Unfinished reports whether the last run started and never ended (it
// was killed or stopped): the next run resumes it.
func (t Times) Unfinished() bool { return !t.Started.IsZero() && t.Ended.Before(t.Started) }

// Next is when the job runs next, after runs as t says, at now: at or
// before now means it is due. A run that never ended is due at once (it
// resumes). A job run every interval runs at once when it never ran, and
// then at a moment of its own in each interval (see turnAfter), about an
// interval after its last run started; a turn missed while lading was
// not running is caught up once. A schedule's next time comes after the
// last run's start (or after the job was first seen), so that a time
// missed is caught up once too. A folder job is always due: it looks into
// its folder every interval.
func (j *Job) Next(t Times, now time.Time) time.Time {
	switch {
	case j.Folder != "", t.Unfinished():
		return now
	case j.cron != nil:
		from := t.Started
		if from.IsZero() {
			from = t.Seen
		}
		if from.IsZero() {
			from = now
		}
		return j.cron.Next(from.In(j.Zone))
	case t.Started.IsZero():
		return now
	}
	return j.turnAfter(t.Started.Add(j.Every / 2))
}

// turnAfter is the first of j's turns after t. The turns of a job run
// every interval are the interval's multiples (from the Unix epoch)
// shifted by a phase of its own, drawn from its account and name: the
// same on every start, and different for each job, so that the jobs of
// many accounts run through the interval rather than all at its start
// (a process holding 200 accounts would otherwise hold 200 pushes at
// once).
func (j *Job) turnAfter(t time.Time) time.Time {
	h := fnv.New64a()
	h.Write([]byte(j.Account + "\x00" + j.Name))
	every := int64(j.Every)
	phase := int64(h.Sum64() % uint64(every))
	k := (t.UnixNano()-phase)/every + 1
	return time.Unix(0, k*every+phase)
}

// When says in a few words when the job runs: "every 15m", "0 6 1 * *
// (Europe/Berlin)", "each file in /srv/acme/in".
func (j *Job) When() string {
	switch {
	case j.Folder != "":
		return fmt.Sprintf("each file dropped in %s (looked at every %s)", j.Folder, short(j.Every))
	case j.cron != nil:
		return fmt.Sprintf("%s (%s)", j.Schedule, j.Zone)
	}
	return "every " + short(j.Every)
}

// short is d as a person writes it in a jobs file: 15m, 1h, 1h30m, 90s
// as 1m30s (not 15m0s, 1h0m0s).
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Interval is about how long there is between two turns of the job: its
// interval, or the gap between a schedule's next two times; for alerts on
// a job that has not succeeded for a few turns.
func (j *Job) Interval(now time.Time) time.Duration {
	if j.cron == nil {
		return j.Every
	}
	first := j.cron.Next(now.In(j.Zone))
	return j.cron.Next(first).Sub(first)
}

// loadTimes reads the times of the job called name of the account.
func loadTimes(ctx context.Context, st *state.DB, account, name string) (Times, error) {
	got, err := st.IDs(ctx, state.KeyJobTimes(account), []string{name})
	if err != nil || got[name] == "" {
		return Times{}, err
	}
	var t Times
	if err := json.Unmarshal([]byte(got[name]), &t); err != nil {
		return Times{}, fmt.Errorf("the state's record of job %s of account %s: %w", name, account, err)
	}
	return t, nil
}

// saveTimes records the times of the job called name of the account.
func saveTimes(ctx context.Context, st *state.DB, account, name string, t Times) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return st.PutIDs(context.WithoutCancel(ctx), state.KeyJobTimes(account), map[string]string{name: string(b)})
}
