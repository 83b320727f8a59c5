package ops

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"lading/api"
	"lading/source"
	"lading/state"
)

// Runner runs the jobs of a jobs file for their accounts: Run keeps them
// going until stopped, Once runs those due and returns.
//
// Each account has one pacer for its token, which all its jobs share, a
// state file of its own, and runs one job of a kind at a time (a second
// waits for the first); across processes the jobs' own locks hold. An
// account whose token cannot be read, or is refused, fails its own runs
// and no other's.
type Runner struct {
	Dirs    Dirs
	Logger  *slog.Logger
	Metrics *Metrics
	// ClientOptions are given to every client, after the runner's own
	// (a test's short backoff).
	ClientOptions []api.Option
	// Only runs the jobs of these accounts; none means all.
	Only []string
	// Parallel is how many runs may be in flight at once, of all the
	// accounts; 0 means DefaultParallel. A run waits for a place (its
	// lateness says how long): 200 accounts due at once (a start after
	// a stop, a schedule shared by all) do not hold 200 files in memory.
	Parallel int
	// Now is the clock; nil is time.Now.
	Now func() time.Time

	mu       sync.Mutex
	accounts map[string]*account    // by name
	states   map[string]*state.DB   // by account name, open until Run or Once returns
	kinds    map[string]*sync.Mutex // one job of an account and kind at a time
	loops    map[string]*loop       // by account and job name
	running  sync.WaitGroup         // every loop, the stopped ones too
	places   chan struct{}          // one per run in flight (Parallel)
	stopping bool
}

// account is an account as the runner uses it.
type account struct {
	Account
	token   string
	scope   string
	limiter *api.Limiter
	st      *state.DB
	// err says why the account cannot run (no token, no state).
	err error
	// def tells an account changed on reload: its settings and token.
	def string
}

// loop is a job running in Run.
type loop struct {
	job        *Job
	acct       *account
	stop, done chan struct{}
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Healthy is nil while the runner runs its jobs, and an error once it is
// stopping.
func (r *Runner) Healthy() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return errors.New("stopping: finishing the runs in flight")
	}
	return nil
}

// Run runs the jobs until ctx ends, then lets the runs in flight end as
// an interrupted command does (the writes in flight are finished and
// recorded, and the next start resumes them) and returns nil. Each value
// on reload reads the jobs file again with load: the jobs that changed
// (or whose account did) stop after their run in flight and start anew,
// the others go on; a file that does not load is reported and the jobs
// run on as they were.
func (r *Runner) Run(ctx context.Context, jobs *Jobs, reload <-chan struct{}, load func() (*Jobs, error)) error {
	defer r.closeStates()
	if err := r.only(jobs); err != nil {
		return err
	}
	r.apply(ctx, jobs)
	for {
		select {
		case <-ctx.Done():
			r.mu.Lock()
			r.stopping = true
			for _, l := range r.loops {
				close(l.stop)
			}
			r.loops = nil
			r.mu.Unlock()
			r.running.Wait()
			r.Logger.Info("stopped: every run in flight has ended")
			return nil
		case <-reload:
			next, err := load()
			if err == nil {
				err = r.only(next)
			}
			if err != nil {
				r.Logger.Error("the jobs file was not reloaded, and the jobs run on as they were: "+oneLine(err), "err", err.Error())
				continue
			}
			r.Logger.Info(fmt.Sprintf("reloaded %s: %d jobs", next.Path, len(r.selected(next))))
			r.apply(ctx, next)
		}
	}
}

// only checks that the accounts of Only are accounts of jobs.
func (r *Runner) only(jobs *Jobs) error {
	for _, name := range r.Only {
		if !slices.ContainsFunc(jobs.Jobs, func(j *Job) bool { return j.Account == name }) {
			var known []string
			for _, j := range jobs.Jobs {
				known = append(known, j.Account)
			}
			slices.Sort(known)
			return fmt.Errorf("--only %s: %w", name, &NoAccountError{Name: name, Known: slices.Compact(known)})
		}
	}
	return nil
}

// selected are the jobs of the accounts Only names (all without it).
func (r *Runner) selected(jobs *Jobs) []*Job {
	var out []*Job
	for _, j := range jobs.Jobs {
		if len(r.Only) == 0 || slices.Contains(r.Only, j.Account) {
			out = append(out, j)
		}
	}
	return out
}

// apply makes the running jobs those of jobs: it starts the new ones and
// those that changed (once their old loop has ended), and stops the ones
// gone.
func (r *Runner) apply(ctx context.Context, jobs *Jobs) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.loops == nil {
		r.loops = map[string]*loop{}
	}
	next := map[string]*loop{}
	for _, j := range r.selected(jobs) {
		a := r.account(ctx, jobs.Accounts[j.Account])
		id := j.Account + "\x00" + j.Name
		old := r.loops[id]
		if old != nil && old.job.def == j.def && old.acct == a {
			next[id] = old
			continue
		}
		l := &loop{job: j, acct: a, stop: make(chan struct{}), done: make(chan struct{})}
		if old != nil {
			close(old.stop)
		}
		r.running.Add(1)
		go func() {
			defer r.running.Done()
			defer close(l.done)
			if old != nil {
				<-old.done
			}
			r.loop(ctx, l)
		}()
		next[id] = l
	}
	for id, l := range r.loops {
		if next[id] == nil {
			close(l.stop)
		}
	}
	r.loops = next
}

// account is the runtime of a, opened once and kept while neither its
// settings nor its token change. Called with r.mu held.
func (r *Runner) account(ctx context.Context, a Account) *account {
	if r.accounts == nil {
		r.accounts, r.states, r.kinds = map[string]*account{}, map[string]*state.DB{}, map[string]*sync.Mutex{}
	}
	rt := &account{Account: a}
	rt.token, _, rt.err = a.Token(r.Dirs.Store())
	sum := sha256.Sum256([]byte(rt.token))
	rt.def = fmt.Sprintf("%+v %x %v", a, sum[:8], rt.err)
	if old := r.accounts[a.Name]; old != nil && old.def == rt.def {
		return old
	}
	rt.limiter = api.NewLimiter(a.Rate, a.Burst)
	if rt.err == nil {
		rt.scope = Scope(a.BaseURL, rt.token)
	}
	st, err := r.state(a.Name)
	if err != nil && rt.err == nil {
		rt.err = err
	}
	rt.st = st
	if rt.err != nil {
		r.Logger.ErrorContext(ctx, fmt.Sprintf("account %s cannot run its jobs: %v", a.Name, rt.err), "account", a.Name, "err", rt.err.Error())
	}
	r.accounts[a.Name] = rt
	return rt
}

// state is the state of the account called name, opened once.
func (r *Runner) state(name string) (*state.DB, error) {
	if st := r.states[name]; st != nil {
		return st, nil
	}
	st, err := state.Open(r.Dirs.StatePath(name))
	if err != nil {
		return nil, err
	}
	r.states[name] = st
	return st, nil
}

// closeStates closes the accounts' state files.
func (r *Runner) closeStates() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for name, st := range r.states {
		st.Close()
		delete(r.states, name)
	}
	r.accounts = nil
}

// DefaultParallel is how many runs are in flight at once unless Parallel
// says. Most of a run is spent waiting on its token's pacer, not on the
// processors: a first push of 10,000 levels is 100 writes, 20 s at 5
// requests a second. So it is not the processors' count but what keeps
// a burst moving (200 such pushes take 7 rounds of 20 s) with a bounded
// memory (a stock push of 10,000 rows holds about 6 MB).
const DefaultParallel = 32

// placesOf is the channel whose places the runs in flight take.
func (r *Runner) placesOf() chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.places == nil {
		n := r.Parallel
		if n <= 0 {
			n = DefaultParallel
		}
		r.places = make(chan struct{}, n)
	}
	return r.places
}

// kindLock is the lock that lets one job of an account and kind run at a
// time.
func (r *Runner) kindLock(account, kind string) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := account + "\x00" + kind
	if r.kinds[key] == nil {
		r.kinds[key] = &sync.Mutex{}
	}
	return r.kinds[key]
}

// loop runs l's job at each of its turns until it is stopped.
func (r *Runner) loop(ctx context.Context, l *loop) {
	j, a := l.job, l.acct
	times := r.times(ctx, j, a)
	r.Metrics.job(j, times, r.now())
	if j.Folder != "" {
		r.watch(ctx, l)
		return
	}
	for {
		due := j.Next(times, r.now())
		if !wait(ctx, l.stop, due.Sub(r.now())) {
			return
		}
		r.run(ctx, j, a, Target{}, due)
		times = r.times(ctx, j, a)
	}
}

// wait waits d, and reports false if ctx ended or stop closed first.
func wait(ctx context.Context, stop <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}

// times reads when j last ran for a; a job never seen before is recorded
// as seen now (its schedule counts from then).
func (r *Runner) times(ctx context.Context, j *Job, a *account) Times {
	if a.st == nil {
		return Times{}
	}
	t, err := loadTimes(context.WithoutCancel(ctx), a.st, a.Name, j.Name)
	if err != nil {
		r.Logger.Warn(err.Error(), "account", a.Name, "job", j.Name)
		return t
	}
	if t.Seen.IsZero() {
		t.Seen = r.now()
		if err := saveTimes(ctx, a.st, a.Name, j.Name, t); err != nil {
			r.Logger.Warn(err.Error(), "account", a.Name, "job", j.Name)
		}
	}
	return t
}

// run runs j once for a (on t's file, for a folder job), due at due: it
// waits its turn among the account's jobs of its kind, records the run's
// start and end in the state, counts it and logs one line of it.
func (r *Runner) run(ctx context.Context, j *Job, a *account, t Target, due time.Time) (Outcome, Result, error) {
	mu := r.kindLock(a.Name, j.Kind)
	mu.Lock()
	defer mu.Unlock()
	places := r.placesOf()
	select {
	case places <- struct{}{}:
		defer func() { <-places }()
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		return Interrupted, Result{}, ctx.Err()
	}
	start := r.now()
	log := r.Logger.With("account", a.Name, "job", j.Name)
	var (
		res Result
		err = a.err
	)
	if err == nil {
		res, err = r.runTask(ctx, j, a, t, start, log)
	}
	o := outcomeOf(ctx, res, err)
	end := r.now()
	r.ended(ctx, j, a, o, start, end)
	r.Metrics.ran(j, o, res, end.Sub(start), end)
	r.logRun(log, j, t, o, res, err, due, start, end)
	return o, res, err
}

// runTask runs j's task with a client of a's token, paced by a's limiter.
func (r *Runner) runTask(ctx context.Context, j *Job, a *account, t Target, start time.Time, log *slog.Logger) (Result, error) {
	times, err := loadTimes(context.WithoutCancel(ctx), a.st, a.Name, j.Name)
	if err != nil {
		return Result{}, err
	}
	times.Started = start
	if err := saveTimes(ctx, a.st, a.Name, j.Name, times); err != nil {
		return Result{}, err
	}
	opts := append([]api.Option{api.WithLimiter(a.limiter), api.WithLogger(log), api.WithUserAgent("lading")}, r.ClientOptions...)
	c, err := api.NewClient(a.BaseURL, a.token, opts...)
	if err != nil {
		return Result{}, err
	}
	t.Client, t.State, t.Scope, t.Logger, t.Now = c, a.st, a.scope, log, start
	res, err := j.Task.Run(ctx, t)
	// The client is the run's own: all its traffic is the run's, that of
	// a run that failed too.
	res.Traffic = c.TrafficSince(api.Stats{})
	return res, err
}

// ended records how j's run that started at start ended: an interrupted
// run is left unended, so that the next start resumes it at once.
func (r *Runner) ended(ctx context.Context, j *Job, a *account, o Outcome, start, end time.Time) {
	if a.st == nil || o == Interrupted {
		return
	}
	t, err := loadTimes(context.WithoutCancel(ctx), a.st, a.Name, j.Name)
	if err == nil {
		t.Started, t.Ended = start, end
		if o == OK || o == Partial {
			t.Success = end
		}
		err = saveTimes(ctx, a.st, a.Name, j.Name, t)
	}
	if err != nil {
		r.Logger.Warn("when the run ended could not be recorded: "+err.Error(), "account", a.Name, "job", j.Name)
	}
}

// logRun writes the line of a run: its outcome in words, with the
// account, the job and what it did as attributes.
func (r *Runner) logRun(log *slog.Logger, j *Job, t Target, o Outcome, res Result, err error, due, start, end time.Time) {
	level := slog.LevelInfo
	switch o {
	case Failed:
		level = slog.LevelError
	case Partial, Locked, Interrupted:
		level = slog.LevelWarn
	}
	what := j.Kind
	if t.Input != "" {
		what += " of " + t.Input
	}
	msg := fmt.Sprintf("%s %s: %s", j.Account, what, o)
	if res.Summary != "" {
		msg += ": " + res.Summary
	}
	if err != nil && o != OK {
		msg += ": " + oneLine(err)
	}
	attrs := []any{"kind", j.Kind, "outcome", string(o), "rows", res.Rows, "requests", res.Traffic.Requests,
		"throttled", res.Traffic.Throttled, "elapsed_s", end.Sub(start).Seconds(), "late_s", max(start.Sub(due), 0).Seconds()}
	if t.Input != "" {
		attrs = append(attrs, "file", t.Input)
	}
	if res.Results != "" {
		attrs = append(attrs, "results", res.Results)
	}
	if len(res.Files) > 0 {
		attrs = append(attrs, "files", res.Files)
	}
	if err != nil {
		attrs = append(attrs, "err", err.Error())
	}
	log.Log(context.Background(), level, msg, attrs...)
}

// oneLine is err's message on one line.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// Tally counts runs by outcome.
type Tally map[Outcome]int

// Once runs each job that is due now once, the accounts side by side,
// and counts how the runs ended: a job run every interval or on a
// schedule when Next says so (by the times in the account's state), a
// folder job on each file that has settled by its first look (its
// modification time is older than the job's settle).
func (r *Runner) Once(ctx context.Context, jobs *Jobs) (Tally, error) {
	defer r.closeStates()
	if err := r.only(jobs); err != nil {
		return nil, err
	}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		tally = Tally{}
	)
	for _, j := range r.selected(jobs) {
		r.mu.Lock()
		a := r.account(ctx, jobs.Accounts[j.Account])
		r.mu.Unlock()
		wg.Go(func() {
			outs := r.once(ctx, j, a)
			mu.Lock()
			defer mu.Unlock()
			for _, o := range outs {
				tally[o]++
			}
		})
	}
	wg.Wait()
	return tally, nil
}

// once runs j once if it is due, and returns the outcomes of its runs.
func (r *Runner) once(ctx context.Context, j *Job, a *account) []Outcome {
	times := r.times(ctx, j, a)
	if j.Folder != "" {
		return r.look(ctx, nil, j, a, &folder{dir: j.Folder, settling: map[string]*source.Settling{}})
	}
	due := j.Next(times, r.now())
	if due.After(r.now()) {
		return nil
	}
	o, _, _ := r.run(ctx, j, a, Target{}, due)
	return []Outcome{o}
}
