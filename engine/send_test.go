package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"lading/api"
	"lading/state"
)

// service scripts the answers to a sender's writes: answer gives, for the
// n-th write (1-based) of the records sent, the result or the error.
type service struct {
	mu     sync.Mutex
	writes int
	sent   []string // every record sent, in order
	held   map[string]bool
	answer func(n int, recs []string) (*api.WriteResult, error)
}

func (s *service) write(_ context.Context, batch []string) (*api.WriteResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	s.sent = append(s.sent, batch...)
	return s.answer(s.writes, batch)
}

// applied takes every record of recs, and holds them.
func (s *service) applied(recs []string) *api.WriteResult {
	res := &api.WriteResult{}
	for _, r := range recs {
		res.IDs = append(res.IDs, api.ID("id-"+r))
		s.held[r] = true
	}
	return res
}

// rig is a sender of records named by strings, its rows' fates, and the
// service it writes to.
type rig struct {
	svc   *service
	st    *state.DB
	run   *state.Run
	fates map[string]*Fate
	took  map[string]api.ID
}

func newRig(t *testing.T, answer func(n int, recs []string) (*api.WriteResult, error)) *rig {
	t.Helper()
	st, err := state.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	run, _, err := st.StartRun(context.Background(), "fp", "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{svc: &service{held: map[string]bool{}, answer: answer}, st: st, run: run,
		fates: map[string]*Fate{}, took: map[string]api.ID{}}
}

func (g *rig) sender() *Sender[string, string] {
	return &Sender[string, string]{
		State: g.st, Run: g.run, Kind: "test.write", Words: testWords, Size: 2, Parallel: 2,
		Record: func(r string) (string, string) { return r, r },
		Write:  g.svc.write,
		Check: func(_ context.Context, open []Open[string]) ([][]Verdict, error) {
			out := make([][]Verdict, len(open))
			for k, o := range open {
				for _, r := range o.Recs {
					v := Verdict{Kind: Again}
					if g.svc.held[r] {
						v = Verdict{Kind: Took}
					}
					out[k] = append(out[k], v)
				}
			}
			return out, nil
		},
		Keep: func(recs []string, vs []Verdict) state.Settlement {
			ids := map[string]string{}
			for j, r := range recs {
				if vs[j].Kind == Took && vs[j].ID != "" {
					ids[r] = string(vs[j].ID)
				}
			}
			return state.Settlement{Keys: []state.Keys{{Scope: rigIDs, Put: ids}}}
		},
		Took:   func(r string, id api.ID) { g.took[r] = id; g.fate(r).Set("sent", "") },
		Settle: func(r string, s Status, msg string) { g.fate(r).Set(s, msg) },
	}
}

// rigIDs is where a rig's sender keeps the ids of the records taken.
const rigIDs = "rig|ids"

func (g *rig) fate(r string) *Fate {
	if g.fates[r] == nil {
		g.fates[r] = &Fate{}
	}
	return g.fates[r]
}

func (g *rig) openIntents(t *testing.T) int {
	t.Helper()
	open, err := g.st.OpenIntents(context.Background(), g.run.ID)
	if err != nil {
		t.Fatal(err)
	}
	return len(open)
}

var recs = []string{"a", "b", "c", "d", "e"}

func TestSenderSettlesEveryAnswer(t *testing.T) {
	t.Parallel()
	lost := fmt.Errorf("post: %w", api.ErrOutcomeUnknown)
	notApplied := fmt.Errorf("post: %w", api.ErrNotApplied)
	tests := []struct {
		name   string
		answer func(s *service, n int, batch []string) (*api.WriteResult, error)
		// want is each record's status and a word of its message.
		want       map[string]string
		writes     int
		sentTwice  []string
		stoppedErr bool
	}{
		{name: "all applied", writes: 3,
			answer: func(s *service, _ int, b []string) (*api.WriteResult, error) { return s.applied(b), nil },
			want:   map[string]string{"a": "sent", "b": "sent", "c": "sent", "d": "sent", "e": "sent"}},
		{name: "an answer lost after the write was applied is read back, not sent again", writes: 3,
			answer: func(s *service, _ int, b []string) (*api.WriteResult, error) {
				res := s.applied(b)
				if b[0] == "a" {
					return nil, lost
				}
				return res, nil
			},
			want: map[string]string{"a": "sent", "b": "sent", "c": "sent", "e": "sent"}},
		{name: "an answer lost before the write was applied is read back, then sent again", writes: 4, sentTwice: []string{"a", "b"},
			answer: func(s *service, n int, b []string) (*api.WriteResult, error) {
				if b[0] == "a" && !s.held["x"] {
					s.held["x"] = true
					return nil, lost
				}
				return s.applied(b), nil
			},
			want: map[string]string{"a": "sent", "b": "sent"}},
		{name: "not applied goes again", writes: 4, sentTwice: []string{"c", "d"},
			answer: func(s *service, _ int, b []string) (*api.WriteResult, error) {
				if b[0] == "c" && !s.held["x"] {
					s.held["x"] = true
					return nil, notApplied
				}
				return s.applied(b), nil
			},
			want: map[string]string{"c": "sent", "d": "sent"}},
		{name: "refused as a whole fails its rows and is not sent again", writes: 3,
			answer: func(s *service, _ int, b []string) (*api.WriteResult, error) {
				if b[0] == "a" {
					return nil, &api.APIError{StatusCode: http.StatusRequestEntityTooLarge}
				}
				return s.applied(b), nil
			},
			want: map[string]string{"a": "failed fewer levels per request", "b": "failed fewer levels", "c": "sent"}},
		{name: "a record refused on its own fails; its neighbours refused with it go again", writes: 4, sentTwice: []string{"b"},
			answer: func(s *service, n int, b []string) (*api.WriteResult, error) {
				if b[0] == "a" && n <= 3 {
					return &api.WriteResult{IDs: []api.ID{"", ""}, Failed: []api.RecordError{
						{Index: 0, Field: "units", Message: "too many"}, {Index: 1, Message: "the write had errors", Whole: true}}}, nil
				}
				return s.applied(b), nil
			},
			want: map[string]string{"a": "failed units: too many", "b": "sent"}},
		{name: "never taken fails after the last round", writes: 15, sentTwice: recs,
			answer: func(*service, int, []string) (*api.WriteResult, error) { return nil, notApplied },
			want:   map[string]string{"a": "failed could not reach the service after 5 tries", "e": "failed check the network"}},
		{name: "throttled to the last round says so", writes: 15, sentTwice: recs,
			answer: func(*service, int, []string) (*api.WriteResult, error) { return nil, &api.RateLimitError{Attempts: 3} },
			want:   map[string]string{"a": "failed kept asking to slow down after 5 tries"}},
		{name: "no answer to the last round says it may have been written", writes: 15, sentTwice: recs,
			answer: func(*service, int, []string) (*api.WriteResult, error) { return nil, lost },
			want:   map[string]string{"c": "failed it may have been written: push again and lading will check"}},
		{name: "a refused token stops the run", stoppedErr: true,
			answer: func(*service, int, []string) (*api.WriteResult, error) {
				return nil, &api.APIError{StatusCode: http.StatusUnauthorized}
			},
			want: map[string]string{"a": "failed log in again"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var g *rig
			g = newRig(t, func(n int, b []string) (*api.WriteResult, error) { return tt.answer(g.svc, n, b) })
			s := g.sender()
			s.Parallel = 1
			err := s.Send(context.Background(), slices.Clone(recs))
			var stopped *StoppedError
			if tt.stoppedErr != errors.As(err, &stopped) || (!tt.stoppedErr && err != nil) {
				t.Fatalf("Send: %v", err)
			}
			for r, want := range tt.want {
				f := g.fate(r)
				status, word, _ := strings.Cut(want, " ")
				if string(f.Action) != status || !strings.Contains(f.Msg, word) {
					t.Errorf("%s: %s %q, want %s with %q", r, f.Action, f.Msg, status, word)
				}
			}
			if tt.writes > 0 && g.svc.writes != tt.writes {
				t.Errorf("%d writes, want %d", g.svc.writes, tt.writes)
			}
			twice := map[string]int{}
			for _, r := range g.svc.sent {
				twice[r]++
			}
			for _, r := range recs {
				if want := slices.Contains(tt.sentTwice, r); (twice[r] > 1) != want {
					t.Errorf("%s sent %d times", r, twice[r])
				}
			}
			if n := g.openIntents(t); n != 0 {
				t.Errorf("%d batches left open in the state", n)
			}
			kept, err := g.st.AllIDs(context.Background(), rigIDs)
			if err != nil {
				t.Fatal(err)
			}
			for r, id := range g.took {
				if id != "" && kept[r] != string(id) {
					t.Errorf("%s was taken as %s; the state keeps %q", r, id, kept[r])
				}
			}
		})
	}
}

func TestSenderStopsTakingBatchesWhenInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := newRig(t, func(int, []string) (*api.WriteResult, error) {
		cancel() // Ctrl-C while the first write is in flight, whose answer is lost
		return nil, fmt.Errorf("post: %w", api.ErrOutcomeUnknown)
	})
	s := g.sender()
	s.Parallel = 1
	if err := s.Send(ctx, slices.Clone(recs)); err != nil {
		t.Fatal(err)
	}
	if g.svc.writes != 1 {
		t.Fatalf("%d writes after the interruption, want 1", g.svc.writes)
	}
	if f := g.fate("a"); f.Action != Failed || !strings.Contains(f.Msg, "checks the account") {
		t.Errorf("a record without an answer: %s %q", f.Action, f.Msg)
	}
	if f := g.fate("c"); f.Action != Skipped || !strings.Contains(f.Msg, "push was interrupted; push again") {
		t.Errorf("a record not sent: %s %q", f.Action, f.Msg)
	}
	if n := g.openIntents(t); n != 1 {
		t.Fatalf("%d open batches, want the one without an answer", n)
	}

	// The next run's attempt reads the account for it first.
	g.svc.held["a"] = true
	if err := g.sender().Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	intents, err := g.st.Intents(context.Background(), g.run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(intents) != 1 || intents[0].Outcome != state.OutcomePartial {
		t.Errorf("after resuming: %+v, want the batch settled as partial (a found, b not)", intents)
	}
}

// A batch refused as a whole, or not applied, has its changes recorded
// as not written with its outcome, in the one transaction: none of its
// records is in the account.
func TestPostSettlesTheChangesOfABatchNotApplied(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want state.Outcome
	}{
		{"refused", &api.APIError{StatusCode: http.StatusBadRequest, Message: "bad name"}, state.OutcomeRejected},
		{"not applied", fmt.Errorf("connection refused: %w", api.ErrNotApplied), state.OutcomeNotApplied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			g := newRig(t, nil)
			changes := []state.Change{{Seq: 0, Op: state.OpCreate, Resource: state.ResourceProduct, Key: "P1"},
				{Seq: 1, Op: state.OpCreate, Resource: state.ResourceProduct, Key: "P2"}}
			p, err := Post(ctx, g.st, g.run, "products.create", []string{"P1", "P2"}, []byte("[]"), changes,
				func(context.Context) (*api.WriteResult, error) { return nil, tc.err })
			if err != nil || p.Err == nil {
				t.Fatalf("Post: %v, the write's error %v", err, p.Err)
			}
			got, err := g.st.Changes(ctx, g.run.ID)
			if err != nil || len(got) != 2 {
				t.Fatalf("changes %+v, %v", got, err)
			}
			for _, c := range got {
				if c.Written != state.WrittenNo {
					t.Errorf("change of %s is %q after the batch was %s, want not written", c.Key, c.Written, tc.name)
				}
			}
			if n := g.openIntents(t); n != 0 {
				t.Errorf("%d batches still open, want the %s one settled", n, tc.name)
			}
		})
	}
}
