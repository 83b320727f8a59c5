package ui

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"lading/importer"
	"lading/progress"
	"lading/results"
	"lading/templates"
)

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.handleHome)
	m.HandleFunc("GET /static/{version}/{name}", s.serveAsset)
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	for _, k := range kinds {
		m.HandleFunc("GET /"+k.Name, func(w http.ResponseWriter, r *http.Request) { s.handleKind(w, r, k, "") })
		m.HandleFunc("POST /"+k.Name, func(w http.ResponseWriter, r *http.Request) { s.handleUpload(w, r, k) })
	}
	m.HandleFunc("GET /work/{work}", s.handleWork)
	m.HandleFunc("POST /work/{work}/mapping", s.handleMapping)
	m.HandleFunc("GET /work/{work}/mapping.yaml", s.handleMappingFile)
	m.HandleFunc("POST /work/{work}/settings", s.handleSettings)
	m.HandleFunc("POST /work/{work}/dry-run", func(w http.ResponseWriter, r *http.Request) { s.handleRun(w, r, true) })
	m.HandleFunc("POST /work/{work}/run", func(w http.ResponseWriter, r *http.Request) { s.handleRun(w, r, false) })
	m.HandleFunc("GET /work/{work}/dry-run", func(w http.ResponseWriter, r *http.Request) { s.handleOutcome(w, r, true) })
	m.HandleFunc("GET /work/{work}/results", func(w http.ResponseWriter, r *http.Request) { s.handleOutcome(w, r, false) })
	m.HandleFunc("GET /work/{work}/{which}/download", s.handleDownload)
	m.HandleFunc("GET /tasks/{task}", s.handleTask)
	m.HandleFunc("GET /tasks/{task}/events", s.handleEvents)
	m.HandleFunc("POST /tasks/{task}/stop", s.handleStop)
	s.exportRoutes(m)
	s.runsRoutes(m)
	s.mux = m
}

// homeView is what the first page shows.
type homeView struct {
	Kinds []*kind
	Works []workLink
}

// workLink is a file uploaded in this session, for the first page.
type workLink struct {
	ID, Name, Job, State string
}

func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	v := homeView{Kinds: kinds}
	s.mu.Lock()
	for _, wk := range s.works {
		if wk.session == sessionOf(r.Context()).id {
			v.Works = append(v.Works, workLink{ID: wk.id, Name: wk.Name, Job: wk.kind.Title, State: wk.state()})
		}
	}
	s.mu.Unlock()
	s.render(w, r, http.StatusOK, "home", "lading", "home", v)
}

// state says where a work stands.
func (w *work) state() string {
	switch {
	case w.last != nil && w.last.Stopped:
		return "stopped: run it again to send the rest"
	case w.last != nil:
		return "run"
	case w.dry != nil:
		return "dry run done"
	}
	return "uploaded"
}

// kindView is the page of a job: what it does, and its upload form.
type kindView struct {
	Kind      *kind
	Templates []templates.Info
	MaxUpload string
	Error     string
}

func (s *Server) handleKind(w http.ResponseWriter, r *http.Request, k *kind, problem string) {
	v := kindView{Kind: k, MaxUpload: sizeText(s.cfg.MaxUpload), Error: problem}
	for _, t := range templates.List() {
		if t.Kind == k.Templates {
			v.Templates = append(v.Templates, t)
		}
	}
	status := http.StatusOK
	if problem != "" {
		status = http.StatusBadRequest
	}
	s.render(w, r, status, "kind", k.Title, k.Name, v)
}

// handleUpload keeps an uploaded file, recognises its layout and shows
// its preview.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request, k *kind) {
	wk := &work{id: newID(), session: sessionOf(r.Context()).id, kind: k, Mode: importer.ModeUpsert, ImagesDir: s.cfg.ImagesDir}
	wk.dir = filepath.Join(s.dir, wk.id)
	if err := os.Mkdir(wk.dir, 0o700); err != nil {
		s.handleKind(w, r, k, err.Error())
		return
	}
	files, names, fields, err := receive(r, wk.dir, s.cfg.MaxUpload)
	if err == nil && files["file"] == "" {
		err = fmt.Errorf("choose a file to upload: a CSV or XLSX file")
	}
	if err != nil {
		os.RemoveAll(wk.dir)
		s.handleKind(w, r, k, err.Error())
		return
	}
	wk.input, wk.Name = files["file"], filepath.Base(names["file"])
	if files["second"] != "" {
		wk.second, wk.Second = files["second"], filepath.Base(names["second"])
	}
	if fi, err := os.Stat(wk.input); err == nil {
		wk.Size = fi.Size()
	}
	if wk.header, err = header(wk.input); err != nil {
		os.RemoveAll(wk.dir)
		s.handleKind(w, r, k, fmt.Sprintf("%s cannot be read: %v", wk.Name, err))
		return
	}
	wk.recognise(fields["template"])
	if err := s.makePreview(r.Context(), wk); err != nil {
		os.RemoveAll(wk.dir)
		s.handleKind(w, r, k, fmt.Sprintf("%s cannot be read: %v", wk.Name, err))
		return
	}
	s.mu.Lock()
	s.works[wk.id] = wk
	s.mu.Unlock()
	http.Redirect(w, r, "/work/"+wk.id, http.StatusSeeOther)
}

// workView is the page of an uploaded file.
type workView struct {
	ID        string
	Work      *work
	Kind      *kind
	Templates []templates.Info
	Problem   *mappingProblem
	Preview   *preview
	Text      string
	Error     string
	Modes     []importer.Mode
	Dry, Last *outcome
	Command   string
}

func (s *Server) handleWork(w http.ResponseWriter, r *http.Request) {
	wk, ok := s.workOf(r)
	if !ok {
		s.notFound(w, r, "This file is not known here: lading ui keeps uploads only while it runs. Upload it again.")
		return
	}
	s.showWork(w, r, wk, http.StatusOK, "")
}

func (s *Server) showWork(w http.ResponseWriter, r *http.Request, wk *work, status int, problem string) {
	v := workView{ID: wk.id, Work: wk, Kind: wk.kind, Problem: wk.problem, Preview: wk.preview, Text: string(wk.Text), Error: problem,
		Modes: []importer.Mode{importer.ModeUpsert, importer.ModeCreateOnly, importer.ModeUpdateOnly}, Dry: wk.dry, Last: wk.last,
		Command: s.command(wk, true)}
	for _, t := range templates.List() {
		if t.Kind == wk.kind.Templates {
			v.Templates = append(v.Templates, t)
		}
	}
	if wk.problem != nil && status == http.StatusOK {
		status = http.StatusUnprocessableEntity
	}
	s.render(w, r, status, "work", wk.Name, wk.kind.Name, v)
}

// handleMapping reads the work's file through another template, or
// through the mapping text the page sends, and shows its preview or what
// is wrong with the mapping, at its lines.
func (s *Server) handleMapping(w http.ResponseWriter, r *http.Request) {
	wk, ok := s.workOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if t := r.PostFormValue("template"); t != "" && r.PostFormValue("use") == "template" {
		wk.useTemplate(t)
	} else {
		wk.useText([]byte(strings.ReplaceAll(r.PostFormValue("text"), "\r\n", "\n")))
	}
	wk.dry, wk.last = nil, nil
	if err := s.makePreview(r.Context(), wk); err != nil {
		s.showWork(w, r, wk, http.StatusBadRequest, err.Error())
		return
	}
	if wk.problem != nil {
		s.showWork(w, r, wk, http.StatusUnprocessableEntity, "")
		return
	}
	http.Redirect(w, r, "/work/"+wk.id+"#preview", http.StatusSeeOther)
}

// handleMappingFile downloads the work's mapping, for the command line.
func (s *Server) handleMappingFile(w http.ResponseWriter, r *http.Request) {
	wk, ok := s.workOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	name := wk.mappingFile()
	if wk.Template != "" {
		name = wk.Template + ".yaml"
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Write(wk.Text)
}

// handleSettings takes an import's mode and images.
func (s *Server) handleSettings(w http.ResponseWriter, r *http.Request) {
	wk, ok := s.workOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	mode, err := importer.ParseMode(r.PostFormValue("mode"))
	if err != nil {
		s.showWork(w, r, wk, http.StatusBadRequest, err.Error())
		return
	}
	dir := strings.TrimSpace(r.PostFormValue("images"))
	if fi, err := os.Stat(dir); dir != "" && (err != nil || !fi.IsDir()) {
		s.showWork(w, r, wk, http.StatusBadRequest, fmt.Sprintf("images folder %s: not a folder on this computer; give the folder the images' paths are relative to", dir))
		return
	}
	wk.Mode, wk.ImagesDir, wk.NoImages = mode, dir, r.PostFormValue("no-images") != ""
	wk.dry, wk.last = nil, nil
	http.Redirect(w, r, "/work/"+wk.id+"#run", http.StatusSeeOther)
}

// handleRun starts a dry run or a run of the work, and shows its
// progress.
func (s *Server) handleRun(w http.ResponseWriter, r *http.Request, dry bool) {
	wk, ok := s.workOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if wk.m == nil || wk.problem != nil {
		s.showWork(w, r, wk, http.StatusUnprocessableEntity, "Fix the mapping first: the file cannot be read through it.")
		return
	}
	title, next := "Run of "+wk.Name, "/work/"+wk.id+"/results"
	if dry {
		title, next = "Dry run of "+wk.Name, "/work/"+wk.id+"/dry-run"
	}
	t, err := s.start(r, title, next, func(ctx context.Context, prog *progress.Progress) error {
		o, err := s.job(ctx, wk, dry, prog)
		if o == nil && err != nil {
			o = &outcome{DryRun: dry, Err: err.Error(), Command: s.command(wk, dry)}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if dry {
			wk.dry = o
		} else {
			wk.last = o
		}
		return err
	})
	if err != nil {
		s.showWork(w, r, wk, http.StatusConflict, err.Error())
		return
	}
	http.Redirect(w, r, "/tasks/"+t.id, http.StatusSeeOther)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	s.render(w, r, http.StatusNotFound, "message", "Not found", "", msg)
}

// handleDownload sends a dry run's or a run's results, failed rows first,
// as CSV or XLSX, or the plan of a dry run.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	wk, ok := s.workOf(r)
	if !ok {
		http.NotFound(w, r)
		return
	}
	o := wk.last
	if r.PathValue("which") == "dry-run" {
		o = wk.dry
	}
	format := r.URL.Query().Get("format")
	base := strings.TrimSuffix(wk.Name, filepath.Ext(wk.Name))
	if r.PathValue("which") == "dry-run" {
		base += ".dry-run"
	}
	switch {
	case o == nil || o.table == nil:
		http.NotFound(w, r)
	case format == "plan" && o.plan != nil:
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", base+".plan.json"))
		http.ServeFile(w, r, filepath.Join(wk.dir, "plan.json"))
	case format == "csv" || format == "xlsx":
		path := filepath.Join(wk.dir, newID()+"."+format)
		if err := results.WriteTable(path, o.table); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer os.Remove(path)
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", base+".results."+format))
		if format == "xlsx" {
			w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		} else {
			w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		}
		http.ServeFile(w, r, path)
	default:
		http.NotFound(w, r)
	}
}
