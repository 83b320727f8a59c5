package ui

import (
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"lading/importer"
	"lading/mapping"
	"lading/source"
	"lading/templates"
)

// A kind is a job the page runs from an uploaded file.
type kind struct {
	Name    string // its path: /import, /stock, ...
	Title   string // "Import a catalog"
	Nav     string // its name in the menu
	Command string // the command that runs it: "import", "stock push"
	// Templates is the kind of its templates (templates.KindCatalog, ...).
	Templates string
	Intro     string
	// has reports whether a mapping has the job's section.
	has func(*mapping.Mapping) bool
	// section names it in messages: "stock:".
	section string
	// Second is set for the import, whose mapping may read variants from
	// a second file (PrestaShop's combinations).
	Second bool
}

var (
	importKind = &kind{Name: "import", Title: "Import a catalog", Nav: "Import", Command: "import", Templates: templates.KindCatalog, Second: true,
		Intro: "Products, variants, options, prices, opening stock and images from a CSV or XLSX export (Shopify, WooCommerce, Magento, PrestaShop, BigCommerce, Squarespace, or a layout of your own). You see a preview and what would change before anything is written.",
		has:   func(m *mapping.Mapping) bool { return m.Stock == nil && m.Shipments == nil && m.Slips == nil }}
	stockKind = &kind{Name: "stock", Title: "Push stock levels", Nav: "Stock", Command: "stock push", Templates: templates.KindStock, section: "stock:",
		Intro: "Available units per SKU (and warehouse) from a warehouse system's file. Only the levels that changed since the last push are sent; nothing else in the account is touched.",
		has:   func(m *mapping.Mapping) bool { return m.Stock != nil }}
	shipmentsKind = &kind{Name: "shipments", Title: "Push shipments", Nav: "Shipments", Command: "shipments push", Templates: templates.KindShipments, section: "shipments:",
		Intro: "The lines a warehouse shipped, with their tracking numbers, posted against the open fulfillments. A line is never shipped twice.",
		has:   func(m *mapping.Mapping) bool { return m.Shipments != nil }}
	slipsKind = &kind{Name: "slips", Title: "Push packing slips", Nav: "Slips", Command: "slips push", Templates: templates.KindSlips, section: "slips:",
		Intro: "Packing slips with their lines and parcels, by the file's own slip reference. A slip pushed before is changed only where it differs.",
		has:   func(m *mapping.Mapping) bool { return m.Slips != nil }}
	kinds = []*kind{importKind, stockKind, shipmentsKind, slipsKind}
)

func kindNamed(name string) *kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// kindOfTemplate is the kind whose templates include name, or nil.
func kindOfTemplate(name string) *kind {
	for _, t := range templates.List() {
		if t.Name == name {
			for _, k := range kinds {
				if k.Templates == t.Kind {
					return k
				}
			}
		}
	}
	return nil
}

// A work is an uploaded file on its way through a job: its mapping, its
// preview, its last dry run and its last run.
type work struct {
	id, session string
	kind        *kind
	dir         string // its folder in the server's
	Name        string // the file's name as uploaded
	Second      string // the second file's, for a join
	input       string
	second      string
	Size        int64
	header      []string

	// Recognised says which layout the file has, when lading knows it.
	Recognised *mapping.Detection
	// Elsewhere is set when the file is another job's: the kind to use.
	Elsewhere *kind
	// Template is the template the mapping is, "" for a mapping of the
	// person's own (Text).
	Template string
	Text     []byte
	m        *mapping.Mapping
	problem  *mappingProblem

	Mode      importer.Mode
	ImagesDir string
	NoImages  bool

	preview *preview
	dry     *outcome
	last    *outcome
}

// uploaded gives the work's files named in s the names they were
// uploaded with, rather than their paths in lading ui's private folder,
// which mean nothing to the person (and are gone when lading ui stops).
func (w *work) uploaded(s string) string {
	return strings.ReplaceAll(s, w.dir+string(filepath.Separator), "")
}

// mappingFile is the name the work's mapping has in the commands it
// gives: the template's, or the file the page lets one download.
func (w *work) mappingFile() string {
	return strings.TrimSuffix(w.Name, filepath.Ext(w.Name)) + ".mapping.yaml"
}

// workOf is the work the request names, of its session.
func (s *Server) workOf(r *http.Request) (*work, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.works[r.PathValue("work")]
	if !ok || w.session != sessionOf(r.Context()).id {
		return nil, false
	}
	return w, true
}

// fileName is an uploaded file's name made safe to keep: its base name,
// with only letters, digits and . _ - kept.
var unsafeName = regexp.MustCompile(`[^\pL\pN._-]+`)

func fileName(name string) string {
	name = unsafeName.ReplaceAllString(filepath.Base(strings.ReplaceAll(name, `\`, "/")), "_")
	name = strings.TrimLeft(name, ".")
	if name == "" || name == "_" {
		return "upload"
	}
	return name
}

// errTooLarge is the error of an upload over the limit.
type errTooLarge struct{ limit int64 }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("the file is larger than %s, the most this page takes; give lading ui a larger --max-upload, or use the command line, which reads files of any size", sizeText(e.limit))
}

// receive saves the files of an upload form into dir, each at most limit
// bytes: the input ("file") and, for a join, the second file ("second").
// Other fields are returned by name.
func receive(r *http.Request, dir string, limit int64) (files map[string]string, names map[string]string, fields map[string]string, err error) {
	r.Body = http.MaxBytesReader(nil, r.Body, 2*limit+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, nil, errors.New("choose a file to upload")
	}
	files, names, fields = map[string]string{}, map[string]string{}, map[string]string{}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, nil, errTooLarge{limit}
			}
			return nil, nil, nil, fmt.Errorf("reading the upload: %w", err)
		}
		if err := keepPart(part, dir, limit, files, names, fields); err != nil {
			return nil, nil, nil, err
		}
	}
	return files, names, fields, nil
}

// keepPart saves a file part in dir, or keeps a field's value.
func keepPart(part *multipart.Part, dir string, limit int64, files, names, fields map[string]string) error {
	defer part.Close()
	field := part.FormName()
	if part.FileName() == "" {
		b, err := io.ReadAll(io.LimitReader(part, 64<<10))
		fields[field] = string(b)
		return err
	}
	if field != "file" && field != "second" {
		return nil
	}
	name := fileName(part.FileName())
	if field == "second" && name == names["file"] {
		name = "second-" + name
	}
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(part, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errTooLarge{limit}
		}
		return fmt.Errorf("saving the upload: %w", err)
	case n > limit:
		return errTooLarge{limit}
	case n == 0:
		os.Remove(path)
		return nil
	}
	files[field], names[field] = path, part.FileName()
	return nil
}

// header reads the column names of the work's file, as mapping init does.
func header(path string) ([]string, error) {
	src, err := source.Open(path, mapping.Source{}.ReadOptions(source.Limits{}))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return src.Header(), nil
}

// recognise chooses the work's mapping from its file's header, as mapping
// init does: the template chosen, else the template of the layout the
// file has (adapted when the file names its columns otherwise), else for a
// catalog a starter mapping listing its columns, else the job's own
// template. A file of another job's layout is said so.
func (w *work) recognise(chosen string) {
	d, ok := mapping.Recognise(w.header)
	if ok {
		w.Recognised = &d
		if k := kindOfTemplate(d.Template); k != nil && k != w.kind {
			w.Elsewhere = k
		}
	}
	name, text := mapping.Init(w.header, w.Name)
	switch {
	case chosen != "":
		w.useTemplate(chosen)
	case name != "" && w.Elsewhere == nil && len(d.Columns) == 0:
		w.useTemplate(name)
	case name != "" && w.Elsewhere == nil:
		w.useText(text)
	case w.kind == importKind && w.Elsewhere == nil:
		w.useText(text)
	default:
		w.useTemplate(defaultTemplate(w.kind))
	}
}

// defaultTemplate is the template a job's file is read through when its
// layout is not recognised: lading's own layout of the job.
func defaultTemplate(k *kind) string {
	if k == importKind {
		return "generic"
	}
	return k.Name
}

// useTemplate reads the work's file through template name.
func (w *work) useTemplate(name string) {
	text, err := templates.Get(name)
	if err != nil {
		w.Template, w.Text, w.m, w.problem = name, nil, nil, &mappingProblem{Msg: err.Error()}
		return
	}
	w.Template = name
	w.parse(name+".yaml", text)
}

// useText reads the work's file through a mapping of the person's own.
func (w *work) useText(text []byte) {
	w.Template = ""
	w.parse(w.mappingFile(), text)
}

// parse parses the mapping text, keeping its problems for the page.
func (w *work) parse(file string, text []byte) {
	w.Text, w.m, w.problem = text, nil, nil
	m, err := mapping.Parse(file, text)
	if err != nil {
		w.problem = problemOf(err, text)
		return
	}
	if !w.kind.has(m) {
		w.problem = &mappingProblem{Msg: fmt.Sprintf("this mapping has no %s section, so it cannot %s; choose the %s template, or add the section", w.kind.section, strings.ToLower(w.kind.Title), defaultTemplate(w.kind)),
			Lines: numbered(text, nil)}
		return
	}
	if w.second != "" && m.Join != nil {
		m.Join.File = w.second
	}
	w.m = m
}
