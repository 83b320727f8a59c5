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
	"lading/results"
)

// resultColumns are the results file's columns after file and row.
var resultColumns = []string{"product_key", "sku", "action", "product_id", "variant_id", "message"}

// resultLine is one input row's line in the results file.
type resultLine struct {
	File       string
	Row        int
	ProductKey string
	SKU        string
	Action     Action
	ProductID  string
	VariantID  string
	Message    string
}

func changesText(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// writeResults writes the results file at path (none when path is "")
// with one line per input row, in file and row order, and counts the rows
// by action. Lines are made and written one at a time.
func writeResults(path string, in *Input, plan *Plan) (Counts, error) {
	var w *results.Writer
	if path != "" {
		var err error
		if w, err = results.Create(path, resultColumns...); err != nil {
			return nil, err
		}
		defer w.Discard()
	}
	counts := Counts{}
	err := eachResult(in, plan, func(l *resultLine) error {
		counts[l.Action]++
		if w == nil {
			return nil
		}
		return w.Write(l.File, l.Row, l.ProductKey, l.SKU, string(l.Action), l.ProductID, l.VariantID, l.Message)
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
// (in.Skipped[at]) or a row that belongs to no product (in.Errors[at]).
type rowAt struct {
	line, at, sub int32
}

const (
	subProduct int32 = -1 - iota
	subSkipped
	subError
)

// rowOrder lists every input row, file by file in the order read, each
// file's rows by line.
type rowOrder struct {
	names []string  // each file's name as its rows' RowRefs give it
	rows  [][]rowAt // by file
	index map[string]int
	// last is the file of the last row added: most rows are of one file.
	lastName string
	last     int
}

// newRowOrder orders the files as inputs lists them, whether rows name
// them by path or base name; files no input names come after them.
func newRowOrder(inputs []string) *rowOrder {
	o := &rowOrder{index: map[string]int{}}
	for _, f := range inputs {
		i := o.file(f)
		o.index[filepath.Base(f)] = i
	}
	return o
}

// file returns the index of the file named name.
func (o *rowOrder) file(name string) int {
	i, ok := o.index[name]
	if !ok {
		i = len(o.names)
		o.names = append(o.names, "")
		o.rows = append(o.rows, nil)
		o.index[name] = i
	}
	return i
}

func (o *rowOrder) add(ref catalog.RowRef, at int, sub int32) {
	if ref.File != o.lastName || o.lastName == "" {
		o.last, o.lastName = o.file(ref.File), ref.File
		if o.names[o.last] == "" {
			o.names[o.last] = ref.File
		}
	}
	o.rows[o.last] = append(o.rows[o.last], rowAt{int32(ref.Line), int32(at), sub})
}

// orderRows lists the rows of in: those of plan's products, skipped rows
// and the errors of rows that belong to no product (one entry per error).
func orderRows(in *Input, plan *Plan) *rowOrder {
	o := newRowOrder(in.Files)
	if len(o.rows) > 0 {
		o.rows[0] = make([]rowAt, 0, in.Rows) // most rows are the main file's
	}
	for i, pp := range plan.Products {
		p := pp.P
		if p.Valid() {
			for _, r := range p.ProductRows {
				o.add(r, i, subProduct)
			}
			for k := range p.Variants {
				o.add(p.Variants[k].Row(), i, int32(k))
			}
			continue
		}
		// An invalid product's errors may name rows that gave no variant.
		variantOf := make(map[catalog.RowRef]int32, len(p.Variants))
		for k := range p.Variants {
			variantOf[p.Variants[k].Row()] = int32(k)
		}
		for _, r := range p.Rows() {
			sub, ok := variantOf[r]
			if !ok {
				sub = subProduct
			}
			o.add(r, i, sub)
		}
	}
	for i, s := range in.Skipped {
		o.add(s.Row, i, subSkipped)
	}
	for i, e := range in.Errors {
		o.add(e.Row, i, subError)
	}
	for _, rows := range o.rows {
		// Rows mostly come in order already (a product's rows together).
		slices.SortStableFunc(rows, func(a, b rowAt) int { return cmp.Compare(a.line, b.line) })
	}
	return o
}

// eachResult calls fn with the line of every input row, in file and row
// order. The line is reused: fn must not keep it.
func eachResult(in *Input, plan *Plan, fn func(*resultLine) error) error {
	o := orderRows(in, plan)
	var l resultLine
	for f, rows := range o.rows {
		for i := 0; i < len(rows); i++ {
			r := rows[i]
			ref := catalog.RowRef{File: o.names[f], Line: int(r.line)}
			switch r.sub {
			case subSkipped:
				l = resultLine{File: ref.File, Row: ref.Line, Action: Skipped, Message: in.Skipped[r.at].Reason}
			case subError:
				// A row's errors are next to each other: one line says them all.
				msg := in.Errors[r.at].Error()
				for i+1 < len(rows) && rows[i+1].sub == subError && rows[i+1].line == r.line {
					i++
					msg += "; " + in.Errors[rows[i].at].Error()
				}
				l = resultLine{File: ref.File, Row: ref.Line, Action: Failed, Message: msg}
			default:
				productLine(&l, plan.Products[r.at], ref, r.sub)
			}
			if err := fn(&l); err != nil {
				return err
			}
		}
	}
	return nil
}

// productLine sets l to the line of row ref of pp's product: the action of
// its variant (sub ≥ 0) or product, with the product's changes on its
// first row, and the row's errors when it has some.
func productLine(l *resultLine, pp *ProductPlan, ref catalog.RowRef, sub int32) {
	p := pp.P
	*l = resultLine{File: ref.File, Row: ref.Line, ProductKey: p.Key, Action: pp.Action, Message: pp.Reason}
	if pp.Live != nil {
		l.ProductID = string(pp.Live.ID)
	}
	if sub >= 0 {
		vp := pp.Variants[sub]
		l.SKU, l.Action, l.Message = vp.V.SKU, vp.Action, vp.Reason
		if vp.Live != nil {
			l.VariantID = string(vp.Live.ID)
		}
		if vp.Action == Updated && l.Message == "" {
			l.Message = changesText(vp.Changes)
		}
	}
	if ref == p.First && pp.Action == Updated && len(pp.Changes) > 0 {
		if l.Action == Unchanged {
			l.Action = Updated
		}
		l.Message = strings.TrimPrefix(l.Message+"; product: "+changesText(pp.Changes), "; ")
	}
	if errs := rowErrors(p.Errs, ref); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i := range errs {
			msgs[i] = errs[i].Error()
		}
		l.Action, l.Message = Failed, strings.Join(msgs, "; ")
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

// planJSON is the --plan file: every product's action with a field diff.
type planJSON struct {
	Mode     Mode              `json:"mode"`
	Products []planProductJSON `json:"products"`
}

type planProductJSON struct {
	Key      string            `json:"key"`
	Name     string            `json:"name,omitempty"`
	ID       string            `json:"id,omitempty"`
	Action   Action            `json:"action"`
	Reason   string            `json:"reason,omitempty"`
	Changes  []Change          `json:"changes,omitempty"`
	Variants []planVariantJSON `json:"variants"`
}

type planVariantJSON struct {
	Key     string   `json:"key"`
	SKU     string   `json:"sku,omitempty"`
	ID      string   `json:"id,omitempty"`
	Row     string   `json:"row"`
	Action  Action   `json:"action"`
	Reason  string   `json:"reason,omitempty"`
	Changes []Change `json:"changes,omitempty"`
}

func planProduct(pp *ProductPlan) planProductJSON {
	pj := planProductJSON{Key: pp.P.Key, Name: pp.P.Name.S, Action: pp.Action, Reason: pp.Reason, Changes: pp.Changes}
	if pp.Live != nil {
		pj.ID = string(pp.Live.ID)
	}
	for _, vp := range pp.Variants {
		vj := planVariantJSON{Key: vp.Key, SKU: vp.V.SKU, Row: vp.V.Row().String(), Action: vp.Action, Reason: vp.Reason, Changes: vp.Changes}
		if vp.Live != nil {
			vj.ID = string(vp.Live.ID)
		}
		pj.Variants = append(pj.Variants, vj)
	}
	return pj
}

// writePlan writes the plan as indented JSON (planJSON), one product at a
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

// encodePlan writes what json.MarshalIndent(planJSON, "", "  ") would,
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
