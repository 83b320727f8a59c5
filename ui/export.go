package ui

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"lading/api/wire"
	"lading/exporter"
	"lading/progress"
	"lading/templates"
)

func (s *Server) exportRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /export", s.handleExportForm)
	m.HandleFunc("POST /export", s.handleExport)
	m.HandleFunc("GET /exports/{export}", s.handleExported)
	m.HandleFunc("GET /exports/{export}/file", s.handleExportFile)
}

// exported is an export the page wrote, to download.
type exported struct {
	ID, session string
	Name, path  string
	Summary     *exporter.Summary
	Err         string
	Command     string
	Resource    string
}

// exportForm is the form of an export, as given.
type exportForm struct {
	Resource, Template, Format string
	Any                        bool
	Sort                       string
	Desc                       bool
	Conds                      []condRow
}

// condRow is a condition of the form: its attribute, operator and value,
// and what is wrong with it.
type condRow struct {
	Attr, Op, Value, Err string
}

// exportView is the export page.
type exportView struct {
	Form       exportForm
	Resources  []string
	Reports    []templates.Info
	Attributes []exporter.Attribute
	Operators  []string
	Error      string
}

// formOf reads the export form of a request; a resource not given is
// products.
func formOf(r *http.Request) exportForm {
	q := r.URL.Query()
	if r.Method == http.MethodPost {
		q = r.PostForm
	}
	f := exportForm{Resource: q.Get("resource"), Template: q.Get("template"), Format: q.Get("format"), Any: q.Get("any") != "",
		Sort: q.Get("sort"), Desc: q.Get("desc") != ""}
	if f.Resource == "" {
		f.Resource = exporter.Products
	}
	if f.Format != "csv" {
		f.Format = "xlsx"
	}
	attrs, ops, vals := q["attr"], q["op"], q["value"]
	for i := range attrs {
		c := condRow{Attr: attrs[i]}
		if i < len(ops) {
			c.Op = ops[i]
		}
		if i < len(vals) {
			c.Value = strings.TrimSpace(vals[i])
		}
		if c.Attr != "" || c.Value != "" {
			f.Conds = append(f.Conds, c)
		}
	}
	return f
}

func (s *Server) exportView(f exportForm, problem string) (exportView, error) {
	attrs, err := exporter.Attributes(f.Resource)
	if err != nil {
		return exportView{}, err
	}
	v := exportView{Form: f, Resources: exporter.ResourceNames, Attributes: attrs, Operators: wire.Operations, Error: problem}
	for _, t := range templates.List() {
		if t.Kind != templates.KindReport {
			continue
		}
		if text, err := templates.Get(t.Name); err == nil {
			if rep, err := exporter.ParseReport(t.Name, text); err == nil && rep.Resource == f.Resource {
				v.Reports = append(v.Reports, t)
			}
		}
	}
	// One empty row more, to add a condition without a script.
	v.Form.Conds = append(v.Form.Conds, condRow{Op: "="})
	return v, nil
}

func (s *Server) handleExportForm(w http.ResponseWriter, r *http.Request) {
	v, err := s.exportView(formOf(r), "")
	if err != nil {
		v, _ = s.exportView(exportForm{Resource: exporter.Products, Format: "xlsx"}, err.Error())
	}
	s.render(w, r, http.StatusOK, "export", "Export a report", "export", v)
}

// handleExport checks the conditions as --where is checked, each at its
// row, and writes the export.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	f := formOf(r)
	q, bad := check(&f)
	report, err := s.report(f)
	if err != nil {
		bad = err.Error()
	}
	if bad != "" || r.PostForm.Get("add") != "" {
		v, verr := s.exportView(f, bad)
		if verr != nil {
			v, _ = s.exportView(exportForm{Resource: exporter.Products, Format: "xlsx"}, verr.Error())
		}
		status := http.StatusOK
		if bad != "" {
			status = http.StatusUnprocessableEntity
		}
		s.render(w, r, status, "export", "Export a report", "export", v)
		return
	}
	ex := &exported{ID: newID(), session: sessionOf(r.Context()).id, Resource: f.Resource,
		Name: fmt.Sprintf("%s-%s.%s", f.Resource, time.Now().Format("2006-01-02-150405"), f.Format)}
	dir := filepath.Join(s.dir, "export-"+ex.ID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ex.path = filepath.Join(dir, ex.Name)
	ex.Command = exportCommand(s.cfg.Command, f, q, ex.Name)
	opts := exporter.Options{Client: s.cfg.Client, Resource: f.Resource, Report: report, Query: q, Output: ex.path, Location: s.cfg.Location,
		Concurrency: s.cfg.Concurrency}
	s.mu.Lock()
	s.exports[ex.ID] = ex
	s.mu.Unlock()
	t, err := s.start(r, "Export of "+strings.ReplaceAll(f.Resource, "-", " "), "/exports/"+ex.ID, func(ctx context.Context, prog *progress.Progress) error {
		opts.Progress = prog
		sum, err := exporter.Export(ctx, opts)
		s.mu.Lock()
		defer s.mu.Unlock()
		ex.Summary = sum
		switch {
		case err != nil && ctx.Err() != nil:
			ex.Err = "Stopped: no file was written."
		case err != nil:
			ex.Err = err.Error()
		}
		return err
	})
	if err != nil {
		v, _ := s.exportView(f, err.Error())
		s.render(w, r, http.StatusConflict, "export", "Export a report", "export", v)
		return
	}
	http.Redirect(w, r, "/tasks/"+t.id, http.StatusSeeOther)
}

// check makes the form's conditions a query, checking each as --where is
// checked (exporter.CheckQuery) and keeping its problem at its row; bad
// says there is one.
func check(f *exportForm) (exporter.Query, string) {
	q := exporter.Query{Any: f.Any}
	bad := ""
	for i := range f.Conds {
		c := &f.Conds[i]
		if c.Attr == "" {
			c.Err = "choose the attribute this condition is about"
		} else {
			cond := exporter.Condition(c.Attr, c.Op, c.Value)
			if err := exporter.CheckQuery(f.Resource, exporter.Query{Where: []string{cond}}); err != nil {
				c.Err = err.Error()
			}
			q.Where = append(q.Where, cond)
		}
		if c.Err != "" {
			bad = "A condition cannot be used as it is: see the message under it."
		}
	}
	if f.Sort != "" {
		sort := f.Sort
		if f.Desc {
			sort = "-" + sort
		}
		q.Sort = []string{sort}
	}
	if bad == "" {
		if err := exporter.CheckQuery(f.Resource, q); err != nil {
			bad = err.Error()
		}
	}
	return q, bad
}

// report is the report layout the form chose, nil for the export's own.
func (s *Server) report(f exportForm) (*exporter.Report, error) {
	if f.Template == "" {
		return nil, nil
	}
	text, err := templates.Get(f.Template)
	if err != nil {
		return nil, err
	}
	rep, err := exporter.ParseReport(f.Template, text)
	if err != nil {
		return nil, err
	}
	if rep.Resource != f.Resource {
		return nil, fmt.Errorf("the %s layout is a report of %s, not of %s", f.Template, rep.Resource, f.Resource)
	}
	return rep, nil
}

// exportCommand is the command that writes the same export in a terminal.
func exportCommand(command string, f exportForm, q exporter.Query, name string) string {
	args := []string{command, "export", f.Resource}
	if f.Template != "" {
		args = append(args, "--template", f.Template)
	}
	for _, w := range q.Where {
		args = append(args, "--where", strconv.Quote(w))
	}
	if q.Any {
		args = append(args, "--any")
	}
	if len(q.Sort) > 0 {
		args = append(args, "--sort", q.Sort[0])
	}
	return strings.Join(append(args, "-o", name), " ")
}

func (s *Server) exportOf(r *http.Request) (*exported, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ex, ok := s.exports[r.PathValue("export")]
	if !ok || ex.session != sessionOf(r.Context()).id {
		return nil, false
	}
	return ex, true
}

func (s *Server) handleExported(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exportOf(r)
	if !ok {
		s.notFound(w, r, "This export is not known here: lading ui keeps exports only while it runs.")
		return
	}
	s.render(w, r, http.StatusOK, "exported", "Export of "+ex.Resource, "export", ex)
}

func (s *Server) handleExportFile(w http.ResponseWriter, r *http.Request) {
	ex, ok := s.exportOf(r)
	if !ok || ex.Err != "" || ex.Summary == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", ex.Name))
	if strings.HasSuffix(ex.Name, ".xlsx") {
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	} else {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	}
	http.ServeFile(w, r, ex.path)
}
