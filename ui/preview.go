package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"lading/catalog"
	"lading/engine"
	"lading/importer"
	"lading/mapping"
	"lading/shipments"
	"lading/slips"
	"lading/source"
	"lading/stock"
)

// previewProducts and previewRows are how much of a file a preview
// shows.
const (
	previewProducts = 12
	previewRows     = 40
)

// mappingProblem is what is wrong with a work's mapping, for the page:
// the mapping's text, line by line, with each problem under its line, and
// what is not at a line.
type mappingProblem struct {
	Msg   string
	Lines []mappingLine
	Count int
	// Template is a template whose layout the file has instead, and Why
	// says how that shows.
	Template, Why string
}

// mappingLine is a line of a mapping with the problems found on it.
type mappingLine struct {
	N    int
	Text string
	Errs []string
}

// problemOf is the problem err (from parsing or binding a mapping) is,
// each error at its line of text when it has one.
func problemOf(err error, text []byte) *mappingProblem {
	var (
		list mapping.ErrorList
		one  *mapping.Error
	)
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = mapping.ErrorList{one}
	default:
		return &mappingProblem{Msg: err.Error(), Lines: numbered(text, nil)}
	}
	p := &mappingProblem{Count: len(list)}
	at := map[int][]string{}
	var loose []string
	for _, e := range list {
		if e.Line > 0 {
			at[e.Line] = append(at[e.Line], e.Msg)
		} else {
			loose = append(loose, e.Msg)
		}
	}
	p.Msg = strings.Join(loose, "; ")
	p.Lines = numbered(text, at)
	return p
}

// numbered is text line by line, with the messages at each line.
func numbered(text []byte, at map[int][]string) []mappingLine {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	out := make([]mappingLine, len(lines))
	for i, l := range lines {
		out[i] = mappingLine{N: i + 1, Text: l, Errs: at[i+1]}
	}
	return out
}

// preview is the first products (an import) or rows (a push) of a file as
// the job reads them, with what is wrong with them.
type preview struct {
	Rows, Invalid, Skipped int
	// Products is an import's; Total how many products the file holds.
	Products []previewProduct
	Total    int
	// Header and Lines are a push's: the file's cells, and the row's
	// status when it cannot be sent.
	Header []string
	Lines  []previewLine
	// Orphans are rows of an import that belong to no product.
	Orphans []string
}

type previewProduct struct {
	Key, Name, Tags string
	Variants        []previewVariant
	Images          []previewCell
	// Errs are the problems of the product's rows not shown in a cell.
	Errs    []string
	Invalid bool
}

type previewVariant struct {
	Row                                  int
	SKU, Options, Prices, Stock, Details previewCell
}

// previewCell is a value as it will be written, or what is wrong with it.
type previewCell struct {
	Text string
	Bad  string
}

type previewLine struct {
	Row    int
	Cells  []previewCell
	Status engine.Status
	Msg    string
}

// makePreview reads the work's file through its mapping. A mapping that
// does not fit the file's header is a problem of the mapping, each error
// at its line; other errors (a file that cannot be read) are returned.
func (s *Server) makePreview(ctx context.Context, w *work) error {
	w.preview = nil
	if w.m == nil {
		return nil
	}
	var err error
	switch w.kind {
	case importKind:
		w.preview, err = previewImport(ctx, w)
	default:
		w.preview, err = s.previewPush(ctx, w)
	}
	if w.preview != nil {
		w.preview.rename(w.uploaded)
	}
	var (
		list     mapping.ErrorList
		one      *mapping.Error
		mismatch *mapping.MismatchError
	)
	switch {
	case errors.As(err, &mismatch):
		w.problem = problemOf(err, w.Text)
		if sg, ok := mapping.Suggest(w.Template, mismatch.Header); ok && !sg.Renamed {
			w.problem.Template, w.problem.Why = sg.Template, sg.Why
		}
		return nil
	case errors.As(err, &list), errors.As(err, &one):
		w.problem = problemOf(err, w.Text)
		return nil
	}
	return err
}

// previewImport reads the catalog and shows its first products.
func previewImport(ctx context.Context, w *work) (*preview, error) {
	in, err := importer.Read(ctx, w.m, w.input, source.Limits{}, nil)
	if err != nil {
		return nil, err
	}
	p := &preview{Rows: in.Rows, Total: len(in.Products), Skipped: len(in.Skipped)}
	for _, prod := range in.Products {
		if !prod.Valid() {
			p.Invalid++
		}
	}
	for i, prod := range in.Products {
		if i == previewProducts {
			break
		}
		p.Products = append(p.Products, productPreview(prod))
	}
	for _, e := range in.Errors {
		p.Orphans = append(p.Orphans, e.Error())
	}
	return p, nil
}

// productPreview is a product as the import will write it, each problem
// in the cell of the value it is about, or under the product.
func productPreview(prod *catalog.Product) previewProduct {
	pp := previewProduct{Key: prod.Key, Name: prod.Name().S, Tags: strings.Join(prod.Tags(), ", "), Invalid: !prod.Valid()}
	rowVariant := map[catalog.RowRef]int{}
	for i := range prod.Variants {
		v := &prod.Variants[i]
		rowVariant[v.Row()] = i
		pp.Variants = append(pp.Variants, variantPreview(prod, v))
	}
	for _, img := range prod.Images() {
		c := previewCell{Text: img.Source}
		if img.Err != "" {
			c.Bad = img.Err
		}
		pp.Images = append(pp.Images, c)
	}
	for _, e := range prod.Errs() {
		i, ok := rowVariant[e.Row]
		if !ok && e.Row.Line > 0 && e.Target != "" && !strings.HasPrefix(e.Target, "product") {
			// The row gives no variant, for its values are wrong: it is
			// shown with them.
			i, ok = len(pp.Variants), true
			rowVariant[e.Row] = i
			pp.Variants = append(pp.Variants, previewVariant{Row: e.Row.Line, SKU: previewCell{Text: e.SKU}})
		}
		if !ok || !placeError(&pp.Variants[i], e) {
			pp.Errs = append(pp.Errs, e.Error())
		}
	}
	return pp
}

func variantPreview(prod *catalog.Product, v *catalog.Variant) previewVariant {
	pv := previewVariant{Row: v.Row().Line, SKU: previewCell{Text: v.SKU()}}
	var opts, prices, details []string
	for _, o := range v.Options() {
		opts = append(opts, o.Name+": "+o.Value)
	}
	for _, t := range v.Tiers() {
		prices = append(prices, t.Name+" "+t.Value)
	}
	for _, f := range v.Fields() {
		details = append(details, f.Name+" "+f.Value)
	}
	pv.Options.Text, pv.Prices.Text, pv.Details.Text = strings.Join(opts, ", "), strings.Join(prices, ", "), strings.Join(details, ", ")
	if st := v.Stock(); st.Set {
		pv.Stock.Text = st.S
	}
	return pv
}

// placeError puts a row's problem in the cell of the value it is about,
// when the preview shows that value.
func placeError(pv *previewVariant, e catalog.RowError) bool {
	msg := e.Rule // its row is the line's, its value the cell's
	if e.Target != "" {
		msg = e.Target + " " + msg
	}
	if e.Column != "" {
		msg = fmt.Sprintf("column %q: %s", e.Column, msg)
	}
	t := strings.ToLower(e.Target)
	var c *previewCell
	switch {
	case strings.Contains(t, "sku"):
		c = &pv.SKU
	case strings.HasPrefix(t, "option"):
		c = &pv.Options
	case strings.Contains(t, "tier") || strings.Contains(t, "price"):
		c = &pv.Prices
	case strings.Contains(t, "stock"):
		c = &pv.Stock
	case strings.HasPrefix(t, "variant."):
		c = &pv.Details
	default:
		return false
	}
	if c.Bad != "" {
		c.Bad += "; "
	} else if c.Text == "" {
		c.Text = e.Value
	}
	c.Bad += msg
	return true
}

// rename gives the files the preview's messages name the names they
// were uploaded with.
func (p *preview) rename(name func(string) string) {
	cells := func(cs ...*previewCell) {
		for _, c := range cs {
			c.Bad = name(c.Bad)
		}
	}
	for i := range p.Products {
		pp := &p.Products[i]
		for j := range pp.Errs {
			pp.Errs[j] = name(pp.Errs[j])
		}
		for j := range pp.Images {
			cells(&pp.Images[j])
		}
		for j := range pp.Variants {
			v := &pp.Variants[j]
			cells(&v.SKU, &v.Options, &v.Prices, &v.Stock, &v.Details)
		}
	}
	for i := range p.Orphans {
		p.Orphans[i] = name(p.Orphans[i])
	}
	for i := range p.Lines {
		l := &p.Lines[i]
		l.Msg = name(l.Msg)
		for j := range l.Cells {
			cells(&l.Cells[j])
		}
	}
}

// previewPush reads a push's file as the job does, and shows its first
// rows: the file's cells, the cell a problem names marked, and the
// problem.
func (s *Server) previewPush(ctx context.Context, w *work) (*preview, error) {
	var fates []engine.Fate
	var err error
	switch w.kind {
	case stockKind:
		var in *stock.Input
		if in, err = stock.Read(ctx, w.m, w.input, source.Limits{}, nil); err == nil {
			fates = fatesOf(in.Lines, func(l *stock.Line) engine.Fate { return l.Fate })
		}
	case shipmentsKind:
		var in *shipments.Input
		if in, err = shipments.Read(ctx, w.m, w.input, source.Limits{}, s.cfg.Location, nil); err == nil {
			fates = fatesOf(in.Lines, func(l *shipments.Line) engine.Fate { return l.Fate })
		}
	case slipsKind:
		var in *slips.Input
		if in, err = slips.Read(ctx, w.m, w.input, source.Limits{}, s.cfg.Location, nil); err == nil {
			fates = fatesOf(in.Lines, func(l *slips.Line) engine.Fate { return l.Fate })
		}
	}
	if err != nil {
		return nil, err
	}
	p := &preview{Rows: len(fates)}
	for _, f := range fates {
		switch {
		case f.Action.Failed():
			p.Invalid++
		case f.Action == engine.Skipped:
			p.Skipped++
		}
	}
	p.Header, p.Lines, err = firstRows(ctx, w, fates)
	return p, err
}

func fatesOf[L any](lines []L, fate func(*L) engine.Fate) []engine.Fate {
	out := make([]engine.Fate, len(lines))
	for i := range lines {
		out[i] = fate(&lines[i])
	}
	return out
}

// columnNamed finds the column a message names: column "Qty".
var columnNamed = regexp.MustCompile(`column "((?:[^"\\]|\\.)*)"`)

// firstRows reads the first rows of the work's file, with the fate the
// job gave each.
func firstRows(ctx context.Context, w *work, fates []engine.Fate) ([]string, []previewLine, error) {
	src, err := source.Open(w.input, w.m.Source.ReadOptions(source.Limits{}))
	if err != nil {
		return nil, nil, err
	}
	defer src.Close()
	byRow := map[int]engine.Fate{}
	for _, f := range fates {
		byRow[f.Row] = f
	}
	var lines []previewLine
	for len(lines) < previewRows && ctx.Err() == nil {
		cells, row, err := src.Next()
		var re *source.RowError
		if err == io.EOF {
			break
		} else if err != nil && !errors.As(err, &re) {
			return nil, nil, err
		}
		lines = append(lines, lineOf(src.Header(), cells, byRow[row], row))
	}
	return src.Header(), lines, nil
}

// lineOf is a row of a push's file with its fate, the cell its problem
// names marked.
func lineOf(header, cells []string, f engine.Fate, row int) previewLine {
	l := previewLine{Row: row, Status: f.Action, Msg: f.Msg}
	bad := ""
	if m := columnNamed.FindStringSubmatch(f.Msg); m != nil && f.Action.Failed() {
		bad = m[1]
	}
	for i, c := range cells {
		cell := previewCell{Text: c}
		if bad != "" && i < len(header) && header[i] == bad {
			cell.Bad = f.Msg
		}
		l.Cells = append(l.Cells, cell)
	}
	return l
}

// sizeText is a number of bytes for people: 100 MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
