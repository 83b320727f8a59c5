package ops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"lading/paths"
	"lading/plural"
	"lading/state"
)

// Check checks what Parse cannot from the file alone, for each account a
// job of jobs runs for: that its token can be read (its token file, or
// the store), and that each folder job can move files into done/ and
// failed/ and write their results. The problems are returned together,
// each where it is written.
func Check(jobs *Jobs, d Dirs) error {
	var errs []error
	checked := map[string]bool{}
	for _, j := range jobs.Jobs {
		if !checked[j.Account] {
			checked[j.Account] = true
			if _, _, err := jobs.Accounts[j.Account].Token(d.Store()); err != nil {
				errs = append(errs, &Error{Path: j.Path, Line: j.Line, Msg: err.Error()})
			}
		}
		if j.Folder == "" {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &Error{Path: j.Path, Line: j.Line, Msg: j.Kind + ": " + fmt.Sprintf(format, args...)})
		}
		for _, sub := range []string{DoneFolder, FailedFolder, stageFolder} {
			if fi, err := os.Stat(filepath.Join(j.Folder, sub)); err == nil && !fi.IsDir() {
				fail("%s is a file: the job moves files into a folder of that name", filepath.Join(j.Folder, sub))
			}
		}
		probe := paths.Named{What: "the job's folder", Path: filepath.Join(j.Folder, ".lading-check")}
		if err := paths.CheckOutputs(nil, []paths.Named{probe}); err != nil {
			fail("%s cannot take the results and the moved files: %v", j.Folder, err)
		}
	}
	return errors.Join(errs...)
}

// Planned is when a job runs next, as Plan finds it.
type Planned struct {
	Job   *Job
	Times Times
	// Next is when it runs next: at or before the time Plan was given
	// means as soon as the runner starts (for a folder job: it takes its
	// files as they settle).
	Next time.Time
	// Waiting is how many files wait in a folder job's folder.
	Waiting int
}

// NextText says for people when the job runs next, as of now: a time in
// the job's zone (else loc; nil is UTC), "as files come (2 files
// waiting)", or "at start" with why.
func (p Planned) NextText(now time.Time, loc *time.Location) string {
	if p.Job.Zone != nil {
		loc = p.Job.Zone
	} else if loc == nil {
		loc = time.UTC
	}
	const layout = "2006-01-02 15:04:05 MST"
	switch {
	case p.Job.Folder != "":
		return "as files come (" + plural.Count(p.Waiting, "file") + " waiting)"
	case !p.Next.After(now) && p.Times.Started.IsZero():
		return "at start (never ran)"
	case p.Times.Unfinished():
		return "at start (resumes its run cut short at " + p.Times.Started.In(loc).Format(layout) + ")"
	case !p.Next.After(now):
		return "at start (due since " + p.Next.In(loc).Format(layout) + ")"
	}
	return p.Next.In(loc).Format(layout)
}

// Plan says when each job of jobs runs next at now, by the times its
// account's state remembers (a state not yet made is read as none: it is
// not made).
func Plan(ctx context.Context, jobs *Jobs, d Dirs, now time.Time) ([]Planned, error) {
	states := map[string]*state.DB{}
	defer func() {
		for _, st := range states {
			if st != nil {
				st.Close()
			}
		}
	}()
	var out []Planned
	for _, j := range jobs.Jobs {
		p := Planned{Job: j}
		st, ok := states[j.Account]
		if !ok {
			path := d.StatePath(j.Account)
			if _, err := os.Stat(path); err == nil {
				if st, err = state.Open(path); err != nil {
					return nil, err
				}
			}
			states[j.Account] = st
		}
		if st != nil {
			t, err := loadTimes(ctx, st, j.Account, j.Name)
			if err != nil {
				return nil, err
			}
			p.Times = t
		}
		p.Next = j.Next(p.Times, now)
		if j.Folder != "" {
			p.Waiting, _ = waiting(j.Folder)
		}
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b Planned) int { return a.Next.Compare(b.Next) })
	return out, nil
}
