package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"lading/plural"
	"lading/progress"
)

// A task is a job running for the page (a dry run, an import, a push, an
// export, an undo): its progress as the job's progress.Progress counts it,
// and how it ended. Stopping it cancels its context, as Ctrl-C does in a
// terminal: the writes in flight are finished and recorded, and the same
// job run again continues.
type task struct {
	id, session string
	title       string
	cancel      context.CancelFunc
	done        chan struct{}
	started     time.Time

	mu      sync.Mutex
	snap    progress.Snapshot
	changed chan struct{} // closed at every change, then made anew
	stopped bool
	err     error
	next    string // where the page goes once the task has ended
}

// errBusy is the error of a task started while another runs.
var errBusy = errors.New("another job is running: wait for it to end, or stop it, before starting this one")

// start runs job as a task of the request's session, titled title, the
// page going to next once it ends. One task runs at a time: the jobs of
// one account take their turns, as the state's locks would have them.
func (s *Server) start(r *http.Request, title, next string, job func(ctx context.Context, prog *progress.Progress) error) (*task, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("lading ui is stopping")
	}
	if s.running != nil {
		select {
		case <-s.running.done:
		default:
			return nil, errBusy
		}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	t := &task{id: newID(), session: sessionOf(r.Context()).id, title: title, cancel: cancel, done: make(chan struct{}),
		started: time.Now(), changed: make(chan struct{}), next: next}
	s.tasks[t.id], s.running = t, t
	prog := progress.New(s.cfg.Log, false, 10*time.Second, func() (int64, float64) {
		st := s.cfg.Client.Stats()
		return st.Requests, st.Rate
	})
	prog.Watch(t.update)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		err := job(ctx, prog)
		prog.Finish()
		t.mu.Lock()
		t.err = err
		t.mu.Unlock()
		close(t.done)
		t.update(t.snapshot())
	}()
	return t, nil
}

// update takes the job's latest snapshot and tells those watching.
func (t *task) update(snap progress.Snapshot) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.snap = snap
	close(t.changed)
	t.changed = make(chan struct{})
}

func (t *task) snapshot() progress.Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.snap
}

// ended reports whether the task has ended.
func (t *task) ended() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

// taskOf is the task the request names, of its session.
func (s *Server) taskOf(r *http.Request) (*task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tasks[r.PathValue("task")]
	if !ok || t.session != sessionOf(r.Context()).id {
		return nil, false
	}
	return t, true
}

// taskView is what the page of a task shows.
type taskView struct {
	ID, Title string
	Snap      progress.Snapshot
	Ended     bool
	Stopped   bool
	Next      string
	Percent   int
}

func (t *task) view() taskView {
	t.mu.Lock()
	defer t.mu.Unlock()
	v := taskView{ID: t.id, Title: t.title, Snap: t.snap, Stopped: t.stopped, Next: t.next}
	select {
	case <-t.done:
		v.Ended = true
	default:
	}
	if t.snap.Total > 0 {
		v.Percent = t.snap.Done * 100 / t.snap.Total
	}
	return v
}

// handleTask shows a task's progress; once it has ended, the page it
// leads to.
func (s *Server) handleTask(w http.ResponseWriter, r *http.Request) {
	t, ok := s.taskOf(r)
	if !ok {
		s.notFound(w, r, "This job is not known here (lading ui was started again since?).")
		return
	}
	if t.ended() {
		http.Redirect(w, r, t.next, http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, "task", t.title, "", t.view())
}

// handleEvents streams a task's progress as server-sent events: a
// "progress" event at each change (at most a few a second), then "done"
// with the page to go to.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	t, ok := s.taskOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	send := func(event string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		fl.Flush()
	}
	for {
		t.mu.Lock()
		changed := t.changed
		t.mu.Unlock()
		v := t.view()
		send("progress", eventOf(v))
		if v.Ended {
			send("done", map[string]string{"next": v.Next})
			return
		}
		select {
		case <-changed:
		case <-t.done:
		case <-r.Context().Done():
			return
		}
		select { // a few events a second are enough for people
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
}

// progressEvent is a progress event's data: what the page shows.
type progressEvent struct {
	Percent int    `json:"percent"`
	Done    int    `json:"done"`
	Total   int    `json:"total"`
	Text    string `json:"text"`
	ETA     string `json:"eta"`
}

func eventOf(v taskView) progressEvent {
	return progressEvent{Percent: v.Percent, Done: v.Snap.Done, Total: v.Snap.Total, Text: progressText(v.Snap), ETA: etaText(v.Snap)}
}

// progressText says how a job stands, as the progress line does.
func progressText(s progress.Snapshot) string {
	switch {
	case s.Total > 0:
		text := fmt.Sprintf("%s: %d of %s written", s.What, s.Done, plural.Count(s.Total, s.Unit))
		if s.Failed > 0 {
			text += fmt.Sprintf(" (%d refused)", s.Failed)
		}
		return text + fmt.Sprintf("; %s sent, %.1f a second", plural.Count(s.Requests, "request"), s.Rate)
	case s.Said != "":
		return s.Said + fmt.Sprintf("; %s sent", plural.Count(s.Requests, "request"))
	case s.Rows > 0:
		return fmt.Sprintf("reading: %s", plural.Count(s.Rows, "row"))
	}
	return fmt.Sprintf("starting; %s sent", plural.Count(s.Requests, "request"))
}

// etaText is the time left, for people.
func etaText(s progress.Snapshot) string {
	if s.ETA <= 0 {
		return ""
	}
	return "about " + s.ETA.Round(time.Second).String() + " left"
}

// handleStop stops a task as Ctrl-C would.
func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	t, ok := s.taskOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	t.mu.Lock()
	t.stopped = true
	t.mu.Unlock()
	t.cancel()
	<-t.done
	http.Redirect(w, r, t.next, http.StatusSeeOther)
}
