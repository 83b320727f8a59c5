package ui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"lading/engine"
	"lading/history"
	"lading/progress"
	"lading/results"
	"lading/state"
	"lading/undo"
)

func (s *Server) runsRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /runs", s.handleRuns)
	m.HandleFunc("GET /runs/{run}", s.handleRun1)
	m.HandleFunc("POST /runs/{run}/undo", s.handleUndo)
	m.HandleFunc("GET /undos/{undo}", s.handleUndone)
	m.HandleFunc("GET /jobs", s.handleJobs)
}

// runsView is the history of runs.
type runsView struct {
	State string
	Runs  []history.Entry
}

// openHistory opens the state to read its runs; ok is false when there is
// no state file yet (no job has run).
func (s *Server) openHistory() (*state.DB, bool, error) {
	if _, err := os.Stat(s.cfg.State); errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	st, err := state.Open(s.cfg.State)
	return st, err == nil, err
}

func (s *Server) handleRuns(w http.ResponseWriter, r *http.Request) {
	v := runsView{State: s.cfg.State}
	st, ok, err := s.openHistory()
	if err != nil {
		s.render(w, r, http.StatusInternalServerError, "message", "Runs", "runs", err.Error())
		return
	}
	if ok {
		defer st.Close()
		if v.Runs, err = history.List(r.Context(), st, 200); err != nil {
			s.render(w, r, http.StatusInternalServerError, "message", "Runs", "runs", err.Error())
			return
		}
		for i := range v.Runs {
			v.Runs[i].File = s.fileOfRun(v.Runs[i].File)
		}
	}
	s.render(w, r, http.StatusOK, "runs", "Runs", "runs", v)
}

// fileOfRun is how the page names a run's file: a file given to this
// page by its name as uploaded, not its path in the private folder.
func (s *Server) fileOfRun(path string) string {
	if rest, ok := strings.CutPrefix(path, s.dir+string(filepath.Separator)); ok {
		return filepath.Base(rest) + " (given to this page)"
	}
	return path
}

// runView is a run with what it wrote.
type runView struct {
	Run      history.Entry
	Records  []history.Record
	More     int
	Undoable bool
}

func (s *Server) handleRun1(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("run"), 10, 64)
	st, ok, serr := s.openHistory()
	if err != nil || !ok || serr != nil {
		s.notFound(w, r, "There is no such run in "+s.cfg.State+".")
		return
	}
	defer st.Close()
	run, recs, err := history.Show(r.Context(), st, id)
	if err != nil {
		s.notFound(w, r, fmt.Sprintf("There is no run %d in %s.", id, s.cfg.State))
		return
	}
	run.File = s.fileOfRun(run.File)
	v := runView{Run: run, Records: recs, Undoable: len(recs) > 0}
	if len(recs) > shownLines {
		v.Records, v.More = recs[:shownLines], len(recs)-shownLines
	}
	s.render(w, r, http.StatusOK, "run", fmt.Sprintf("Run %d", id), "runs", v)
}

// undone is an undo (or its dry run) the page ran.
type undone struct {
	id, session string
	Run         int64
	DryRun      bool
	Force       bool
	Archive     bool
	Job         string
	O           *outcome
	Later       []int64
	Lines       []resultLine
	Header      []string
	More        int
	Command     string
}

// handleUndo takes back what a run wrote, or says what would be taken
// back (a dry run).
func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("run"), 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	u := &undone{id: newID(), session: sessionOf(r.Context()).id, Run: id, DryRun: r.PostFormValue("dry") != "",
		Force: r.PostFormValue("force") != "", Archive: r.PostFormValue("archive") != ""}
	u.Command = undoCommand(s.cfg, u)
	resultsFile := filepath.Join(s.dir, "undo-"+u.id+".results.csv")
	title := fmt.Sprintf("Undo of run %d", id)
	if u.DryRun {
		title = fmt.Sprintf("Dry run of the undo of run %d", id)
	}
	s.mu.Lock()
	s.undos[u.id] = u
	s.mu.Unlock()
	t, err := s.start(r, title, "/undos/"+u.id, func(ctx context.Context, prog *progress.Progress) error {
		o, err := s.undo(ctx, u, resultsFile, prog)
		s.mu.Lock()
		u.O = o
		s.mu.Unlock()
		return err
	})
	if err != nil {
		s.render(w, r, http.StatusConflict, "message", title, "runs", err.Error())
		return
	}
	http.Redirect(w, r, "/tasks/"+t.id, http.StatusSeeOther)
}

// undo runs the undo u asks for.
func (s *Server) undo(ctx context.Context, u *undone, resultsFile string, prog *progress.Progress) (*outcome, error) {
	st, err := state.Open(s.cfg.State)
	if err != nil {
		return &outcome{Err: err.Error()}, err
	}
	defer st.Close()
	rep, err := undo.Undo(ctx, undo.Options{Client: s.cfg.Client, State: st, Scope: s.cfg.Scope, Run: u.Run, DryRun: u.DryRun,
		Force: u.Force, Archive: u.Archive, Concurrency: s.cfg.Concurrency, ResultsFile: resultsFile, Progress: prog, Logger: s.cfg.Logger})
	o := &outcome{DryRun: u.DryRun, Results: resultsFile, Command: u.Command}
	if rep == nil {
		o.Err = err.Error()
		return o, err
	}
	u.Job, u.Later = rep.Job, rep.Later
	o.Counts = []countsLine{{"records", rep.Rows}}
	o.Traffic = trafficOf(&rep.Report)
	o.ended(err)
	if t, rerr := results.ReadTable(resultsFile); rerr == nil {
		failedFirst(t)
		o.table = t
		u.Header = t.Header
		at := t.Column("action")
		for i, l := range t.Lines {
			if i == shownLines {
				u.More = len(t.Lines) - i
				break
			}
			rl := resultLine{Cells: l}
			if at >= 0 && at < len(l) {
				rl.Status = engine.Status(l[at])
			}
			u.Lines = append(u.Lines, rl)
		}
	}
	return o, err
}

func (s *Server) handleUndone(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	u, ok := s.undos[r.PathValue("undo")]
	s.mu.Unlock()
	if !ok || u.session != sessionOf(r.Context()).id || u.O == nil {
		s.notFound(w, r, "This undo is not known here: lading ui keeps what it ran only while it runs. The runs page lists every run.")
		return
	}
	s.render(w, r, http.StatusOK, "undone", fmt.Sprintf("Undo of run %d", u.Run), "runs", u)
}

// undoCommand is the command that does the same undo in a terminal.
func undoCommand(cfg Config, u *undone) string {
	cmd := cfg.Command + " undo"
	for _, f := range cfg.terminalFlags() {
		cmd += " " + f
	}
	if u.DryRun {
		cmd += " --dry-run"
	}
	if u.Force {
		cmd += " --force"
	}
	if u.Archive {
		cmd += " --archive"
	}
	return fmt.Sprintf("%s %d", cmd, u.Run)
}
