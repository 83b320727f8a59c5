package importer

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"lading/catalog"
	"lading/engine"
	"lading/internal/arena"
	"lading/results"
)

// ResultLine is one input row's line in an import's results file.
type ResultLine struct {
	File       string        `csv:"file"`
	Row        int           `csv:"row"`
	ProductKey string        `csv:"product_key"`
	SKU        string        `csv:"sku"`
	Action     engine.Status `csv:"action"`
	ProductID  string        `csv:"product_id"`
	VariantID  string        `csv:"variant_id"`
	Message    string        `csv:"message"`
}

// Cells gives the line's cells, in the order of its fields (a
// results.Celler: a million-row import's file is written without gocsv's
// reflection on every line).
func (l *ResultLine) Cells(c *results.Cells) {
	c.Text(l.File)
	c.Int(l.Row)
	c.Text(l.ProductKey)
	c.Text(l.SKU)
	c.Text(string(l.Action))
	c.Text(l.ProductID)
	c.Text(l.VariantID)
	c.Text(l.Message)
}

// resultLine is a line of the results file: an input row's, or an
// image's (Image set), after the line of the row that names it. Image is
// the image's source as its row gives it, FileID the product file holding
// it: the columns of an import with images.
type resultLine struct {
	ResultLine
	Image  string `csv:"image"`
	FileID string `csv:"file_id"`
}

// Cells gives the line's cells, the image columns last.
func (l *resultLine) Cells(c *results.Cells) {
	l.ResultLine.Cells(c)
	c.Text(l.Image)
	c.Text(l.FileID)
}

// lineWriter writes the lines of a results file, with the image columns
// or without.
type lineWriter interface {
	write(*resultLine) error
	Close() error
	Discard()
}

type withImages struct{ *results.File[resultLine] }

func (w withImages) write(l *resultLine) error { return w.Write(*l) }

type withoutImages struct{ *results.File[ResultLine] }

func (w withoutImages) write(l *resultLine) error { return w.Write(l.ResultLine) }

func createResults(path string, images bool) (lineWriter, error) {
	if images {
		f, err := results.Create[resultLine](path)
		return withImages{f}, err
	}
	f, err := results.Create[ResultLine](path)
	return withoutImages{f}, err
}

func changesText(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// writeResults writes the results file at path (none when path is "")
// with one line per input row, in file and row order, each followed by
// the lines of the images it names first when images says the import
// has some, and counts the rows by action. Lines are made and written one
// at a time.
func writeResults(path string, in *Input, plan *Plan, images bool) (engine.Counts, error) {
	var w lineWriter
	if path != "" {
		var err error
		if w, err = createResults(path, images); err != nil {
			return nil, err
		}
		defer w.Discard()
	}
	counts := engine.Counts{}
	err := eachResult(in, plan, func(l *resultLine) error {
		if l.Image == "" {
			counts[l.Action]++
		}
		if w == nil {
			return nil
		}
		l.File = in.Label(l.File)
		return w.write(l)
	})
	if err == nil && w != nil {
		err = w.Close()
	}
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// rowAt says what became of one input row: variant sub of plan product
// at, or (sub < 0) a row of that product without a variant, a skipped row
// (in.Skipped[at]) or an error of a row that belongs to no product
// (in.Errors[at]).
type rowAt struct {
	file, line, at, sub int32
}

const (
	subProduct int32 = -1 - iota
	subSkipped
	subError
)

func compareRows(a, b rowAt) int {
	if a.file != b.file {
		return cmp.Compare(a.file, b.file)
	}
	return cmp.Compare(a.line, b.line)
}

// fileOrder numbers files in the order they were read, whether rows name
// them by path or base name; files the input does not list come after.
type fileOrder struct {
	names []string // each file's name as its rows' RowRefs give it
	index map[string]int32
	// last is the file of the last row looked up: most rows are of one.
	lastName string
	last     int32
}

func newFileOrder(inputs []string) *fileOrder {
	o := &fileOrder{index: map[string]int32{}}
	for _, f := range inputs {
		i := int32(len(o.names))
		o.names = append(o.names, "") // named by the first row of the file
		o.index[f], o.index[filepath.Base(f)] = i, i
	}
	return o
}

func (o *fileOrder) number(name string) int32 {
	if name == o.lastName && name != "" {
		return o.last
	}
	i, ok := o.index[name]
	if !ok {
		i = int32(len(o.names))
		o.names = append(o.names, "")
		o.index[name] = i
	}
	if o.names[i] == "" {
		o.names[i] = name
	}
	o.lastName, o.last = name, i
	return i
}

func (o *fileOrder) at(ref catalog.RowRef, at int, sub int32) rowAt {
	return rowAt{o.number(ref.File), int32(ref.Line), int32(at), sub}
}

// productRows calls yield with the rows of pp, plan product i, in file and
// line order as long as the rows of each kind (product rows, variants)
// came in that order, until yield returns false.
func (o *fileOrder) productRows(i int, pp *ProductPlan, yield func(rowAt) bool) bool {
	p := pp.P
	if !p.Valid() {
		// Its errors may name rows that gave no variant.
		variantOf := make(map[catalog.RowRef]int32, len(p.Variants))
		for k := range p.Variants {
			variantOf[p.Variants[k].Row()] = int32(k)
		}
		for _, r := range p.Rows() {
			sub, ok := variantOf[r]
			if !ok {
				sub = subProduct
			}
			if !yield(o.at(r, i, sub)) {
				return false
			}
		}
		return true
	}
	rows, k := p.ProductRows(), 0
	for v := range p.Variants {
		r := o.at(p.Variants[v].Row(), i, int32(v))
		for ; k < len(rows); k++ {
			pr := o.at(rows[k], i, subProduct)
			if compareRows(pr, r) > 0 {
				break
			}
			if !yield(pr) {
				return false
			}
		}
		if !yield(r) {
			return false
		}
	}
	for ; k < len(rows); k++ {
		if !yield(o.at(rows[k], i, subProduct)) {
			return false
		}
	}
	return true
}

// eachResult calls fn with the line of every input row, in file and row
// order. The line is reused: fn must not keep it. When the products' rows
// come in file order, one product after the other (as in most exports),
// the other rows (skipped, or of no product) are merged in as they go;
// else every row is listed and sorted first.
func eachResult(in *Input, plan *Plan, fn func(*resultLine) error) error {
	o := newFileOrder(in.Files)
	var others []rowAt
	for i, s := range in.Skipped {
		others = append(others, o.at(s.Row, i, subSkipped))
	}
	for i, e := range in.Errors {
		others = append(others, o.at(e.Row, i, subError))
	}
	e := &emitter{in: in, plan: plan, files: o, fn: fn}
	products := plan.Products
	if !o.productsInOrder(products) {
		all := make([]rowAt, 0, in.Rows)
		for i, pp := range products {
			o.productRows(i, pp, func(r rowAt) bool {
				all = append(all, r)
				return true
			})
		}
		others, products = append(all, others...), nil
	}
	slices.SortStableFunc(others, compareRows)
	e.others = others
	for i, pp := range products {
		if !o.productRows(i, pp, e.emitProductRow) {
			return e.err
		}
	}
	e.emitOthers(nil)
	return e.err
}

// productsInOrder reports whether the rows of products, one product after
// the other, come in file and line order.
func (o *fileOrder) productsInOrder(products []*ProductPlan) bool {
	prev := rowAt{file: -1}
	for i, pp := range products {
		ok := o.productRows(i, pp, func(r rowAt) bool {
			if compareRows(prev, r) >= 0 {
				return false
			}
			prev = r
			return true
		})
		if !ok {
			return false
		}
	}
	return true
}

// emitter makes the lines of rows and hands them to fn, merging in the
// other rows (sorted) before the product rows that come after them.
type emitter struct {
	in     *Input
	plan   *Plan
	files  *fileOrder
	others []rowAt
	fn     func(*resultLine) error
	line   resultLine
	tmp    VariantPlan
	ids    arena.Arena
	err    error
}

func (e *emitter) emitProductRow(r rowAt) bool {
	e.emitOthers(&r)
	if e.err != nil {
		return false
	}
	e.emitProductLine(e.plan.Products[r.at], e.ref(r), r.sub)
	return e.err == nil
}

// emitProductLine emits the line of row ref of pp, then the lines of the
// images it names first.
func (e *emitter) emitProductLine(pp *ProductPlan, ref catalog.RowRef, sub int32) {
	productLine(&e.line, pp, ref, sub, &e.tmp, &e.ids)
	if e.err = e.fn(&e.line); e.err != nil {
		return
	}
	for _, ip := range pp.Images() {
		if ip.Image.Row == ref {
			imageLine(&e.line, pp, ip)
			if e.err = e.fn(&e.line); e.err != nil {
				return
			}
		}
	}
}

// imageLine sets l to the line of image ip of pp.
func imageLine(l *resultLine, pp *ProductPlan, ip *ImagePlan) {
	*l = resultLine{ResultLine: ResultLine{File: ip.Image.Row.File, Row: ip.Image.Row.Line, ProductKey: pp.P.Key, Action: ip.Action,
		Message: ip.Reason}, Image: ip.Image.Source, FileID: string(ip.FileID)}
	if id := pp.ID(); id != "" {
		l.ProductID = string(id)
	}
	if l.Action == "" {
		l.Action = engine.Skipped
	}
}

// emitOthers emits the other rows that come before r (all when r is nil).
func (e *emitter) emitOthers(r *rowAt) {
	for len(e.others) > 0 && e.err == nil && (r == nil || compareRows(e.others[0], *r) < 0) {
		o := e.others[0]
		e.others = e.others[1:]
		ref := e.ref(o)
		switch o.sub {
		case subSkipped:
			e.line = resultLine{ResultLine: ResultLine{File: ref.File, Row: ref.Line, Action: engine.Skipped, Message: e.in.Skipped[o.at].Reason}}
		case subError:
			// A row's errors are next to each other: one line says them all.
			msg := e.in.Errors[o.at].Error()
			for len(e.others) > 0 && e.others[0].sub == subError && compareRows(e.others[0], o) == 0 {
				msg += "; " + e.in.Errors[e.others[0].at].Error()
				e.others = e.others[1:]
			}
			e.line = resultLine{ResultLine: ResultLine{File: ref.File, Row: ref.Line, Action: engine.Failed, Message: msg}}
		default:
			e.emitProductLine(e.plan.Products[o.at], ref, o.sub)
			continue
		}
		e.err = e.fn(&e.line)
	}
}

func (e *emitter) ref(r rowAt) catalog.RowRef {
	return catalog.RowRef{File: e.files.names[r.file], Line: int(r.line)}
}

// productLine sets l to the line of row ref of pp's product: the action of
// its variant (sub ≥ 0) or product, with the product's changes on its
// first row, and the row's errors when it has some. tmp holds the plan of
// a variant that has none of its own (ProductPlan.variant); ids, the ids
// made for the lines (a million of them, each its own string, were a
// collection's worth of allocations).
func productLine(l *resultLine, pp *ProductPlan, ref catalog.RowRef, sub int32, tmp *VariantPlan, ids *arena.Arena) {
	p := pp.P
	*l = resultLine{ResultLine: ResultLine{File: ref.File, Row: ref.Line, ProductKey: p.Key, Action: pp.Action, Message: pp.Reason()}}
	if id := pp.ID(); id != "" {
		l.ProductID = string(id)
	}
	if sub >= 0 {
		vp := pp.variant(int(sub), tmp)
		l.SKU, l.Action, l.Message = vp.V.SKU(), vp.Action(), vp.Reason()
		if id, ok := pp.variantIDIn(int(sub), ids); ok {
			l.VariantID = string(id)
		}
		if vp.Action() == engine.Updated && l.Message == "" {
			l.Message = changesText(vp.Changes())
		}
	}
	if ref == p.First() && pp.Action == engine.Updated && len(pp.Changes()) > 0 {
		if l.Action == engine.Unchanged {
			l.Action = engine.Updated
		}
		l.Message = strings.TrimPrefix(l.Message+"; product: "+changesText(pp.Changes()), "; ")
	}
	if errs := rowErrors(p.Errs(), ref); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i := range errs {
			msgs[i] = errs[i].Error()
		}
		l.Action, l.Message = engine.Failed, strings.Join(msgs, "; ")
		if l.SKU == "" {
			l.SKU = errs[0].SKU
		}
	}
}

// rowErrors returns the errors of row ref among errs, which Finish sorted
// by row.
func rowErrors(errs []catalog.RowError, ref catalog.RowRef) []catalog.RowError {
	if len(errs) == 0 {
		return nil
	}
	byRow := func(e catalog.RowError, r catalog.RowRef) int {
		if c := strings.Compare(e.Row.File, r.File); c != 0 {
			return c
		}
		return cmp.Compare(e.Row.Line, r.Line)
	}
	lo, _ := slices.BinarySearchFunc(errs, ref, byRow)
	hi := lo
	for hi < len(errs) && errs[hi].Row == ref {
		hi++
	}
	return errs[lo:hi]
}

// PlanFile is the --plan file: every product's action with a field diff.
// lading ui reads it back (ReadPlan) to show a dry run's diff.
type PlanFile struct {
	Mode     Mode             `json:"mode"`
	Products []PlannedProduct `json:"products"`
}

// PlannedProduct is a product of the plan file: what becomes of it, the
// fields that change, its variants and images.
type PlannedProduct struct {
	Key      string           `json:"key"`
	Name     string           `json:"name,omitempty"`
	ID       string           `json:"id,omitempty"`
	Action   engine.Status    `json:"action"`
	Reason   string           `json:"reason,omitempty"`
	Changes  []Change         `json:"changes,omitempty"`
	Variants []PlannedVariant `json:"variants"`
	Images   []PlannedImage   `json:"images,omitempty"`
}

// PlannedImage is an image of a product in the plan file, with the
// variant whose row names it, its alt text and position where the layout
// gives them (the service's files take neither): what becomes of it (to
// upload, unchanged, failed or skipped) and why.
type PlannedImage struct {
	Source   string        `json:"source"`
	Row      string        `json:"row"`
	Variant  string        `json:"variant,omitempty"`
	Alt      string        `json:"alt,omitempty"`
	Position int           `json:"position,omitempty"`
	Action   engine.Status `json:"action"`
	Reason   string        `json:"reason,omitempty"`
	Size     int64         `json:"size,omitempty"`
	FileID   string        `json:"file_id,omitempty"`
	Replaces string        `json:"replaces,omitempty"`
}

// PlannedVariant is a variant of a product in the plan file, with the row
// that gives it.
type PlannedVariant struct {
	Key     string        `json:"key"`
	SKU     string        `json:"sku,omitempty"`
	ID      string        `json:"id,omitempty"`
	Row     string        `json:"row"`
	Action  engine.Status `json:"action"`
	Reason  string        `json:"reason,omitempty"`
	Changes []Change      `json:"changes,omitempty"`
}

func planProduct(pp *ProductPlan) PlannedProduct {
	pj := PlannedProduct{Key: pp.P.Key, Name: pp.P.Name().S, Action: pp.Action, Reason: pp.Reason(), Changes: pp.Changes()}
	if id := pp.ID(); id != "" {
		pj.ID = string(id)
	}
	var tmp VariantPlan
	for j := range pp.P.Variants {
		vp := pp.variant(j, &tmp)
		vj := PlannedVariant{Key: vp.Key(), SKU: vp.V.SKU(), Row: vp.V.Row().String(), Action: vp.Action(), Reason: vp.Reason(), Changes: vp.Changes()}
		if id, ok := pp.variantID(j); ok {
			vj.ID = string(id)
		}
		pj.Variants = append(pj.Variants, vj)
	}
	for _, ip := range pp.Images() {
		pj.Images = append(pj.Images, PlannedImage{Source: ip.Image.Source, Row: ip.Image.Row.String(), Variant: ip.Image.Variant,
			Alt: ip.Image.Alt, Position: ip.Image.Position, Action: ip.Action,
			Reason: ip.Reason, Size: ip.Size, FileID: string(ip.FileID), Replaces: string(ip.Replaces)})
	}
	return pj
}

// writePlan writes the plan as indented JSON (PlanFile), one product at a
// time.
func writePlan(path string, plan *Plan) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = encodePlan(bw, plan)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the plan %s: %w", path, err)
	}
	return nil
}

// ReadPlan reads a plan file writePlan wrote.
func ReadPlan(path string) (*PlanFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the plan: %w", err)
	}
	var p PlanFile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("reading the plan %s: %w", path, err)
	}
	return &p, nil
}

// encodePlan writes what json.MarshalIndent(PlanFile, "", "  ") would,
// without holding it.
func encodePlan(w *bufio.Writer, plan *Plan) error {
	mode, err := json.Marshal(plan.Mode)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "{\n  \"mode\": %s,\n  \"products\": [", mode)
	for i, pp := range plan.Products {
		b, err := json.MarshalIndent(planProduct(pp), "    ", "  ")
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		w.Write(b)
	}
	if len(plan.Products) > 0 {
		w.WriteString("\n  ")
	}
	_, err = w.WriteString("]\n}\n")
	return err
}
