package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gocarina/gocsv"
	"github.com/xuri/excelize/v2"

	"lading/catalog"
)

// ResultLine is one input row's line in the results file.
type ResultLine struct {
	File       string `csv:"file"`
	Row        int    `csv:"row"`
	ProductKey string `csv:"product_key"`
	SKU        string `csv:"sku"`
	Action     Action `csv:"action"`
	ProductID  string `csv:"product_id"`
	VariantID  string `csv:"variant_id"`
	Message    string `csv:"message"`
}

var resultHeader = []string{"file", "row", "product_key", "sku", "action", "product_id", "variant_id", "message"}

func changesText(cs []Change) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// resultLines gives every input row exactly one line: rows of products with
// the action of their variant (or product), skipped rows with the skip
// rule's reason, invalid rows with what is wrong.
func resultLines(in *Input, plan *Plan) []ResultLine {
	fileIndex := map[string]int{}
	for i, f := range in.Files {
		fileIndex[filepath.Base(f)] = i
		fileIndex[f] = i
	}
	var lines []ResultLine
	for _, pp := range plan.Products {
		p := pp.P
		productID := ""
		if pp.Live != nil {
			productID = string(pp.Live.ID)
		}
		rowErrs := map[catalog.RowRef][]string{}
		for _, e := range p.Errs {
			rowErrs[e.Row] = append(rowErrs[e.Row], e.Error())
		}
		byRow := map[catalog.RowRef]*VariantPlan{}
		for _, vp := range pp.Variants {
			byRow[vp.V.Row] = vp
		}
		for _, ref := range p.Rows() {
			l := ResultLine{File: ref.File, Row: ref.Line, ProductKey: p.Key, ProductID: productID,
				Action: pp.Action, Message: pp.Reason}
			if vp := byRow[ref]; vp != nil {
				l.SKU, l.Action, l.Message = vp.V.SKU, vp.Action, vp.Reason
				if vp.Live != nil {
					l.VariantID = string(vp.Live.ID)
				}
				if vp.Action == Updated && l.Message == "" {
					l.Message = changesText(vp.Changes)
				}
			}
			if ref == p.First && (pp.Action == Updated) && len(pp.Changes) > 0 {
				if l.Action == Unchanged {
					l.Action = Updated
				}
				l.Message = strings.TrimPrefix(l.Message+"; product: "+changesText(pp.Changes), "; ")
			}
			if errs, ok := rowErrs[ref]; ok {
				l.Action, l.Message = Failed, strings.Join(errs, "; ")
			}
			lines = append(lines, l)
		}
	}
	for _, s := range in.Skipped {
		lines = append(lines, ResultLine{File: s.Row.File, Row: s.Row.Line, Action: Skipped, Message: s.Reason})
	}
	for _, e := range in.Errors {
		lines = append(lines, ResultLine{File: e.Row.File, Row: e.Row.Line, Action: Failed, Message: e.Error()})
	}
	sort.SliceStable(lines, func(i, j int) bool {
		fi, fj := fileIndex[lines[i].File], fileIndex[lines[j].File]
		if fi != fj {
			return fi < fj
		}
		return lines[i].Row < lines[j].Row
	})
	return lines
}

// WriteResults writes the results file: XLSX when path ends in .xlsx, CSV
// otherwise. It writes to a temporary file and renames it, so a results
// file is never half written.
func WriteResults(path string, lines []ResultLine) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".results-*")
	if err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	defer os.Remove(tmp.Name())
	if strings.EqualFold(filepath.Ext(path), ".xlsx") {
		err = writeResultsXLSX(tmp, lines)
	} else {
		err = gocsv.MarshalFile(&lines, tmp)
		if err == nil && len(lines) == 0 {
			_, err = tmp.WriteString(strings.Join(resultHeader, ",") + "\n")
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing results %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}

func writeResultsXLSX(w *os.File, lines []ResultLine) error {
	f := excelize.NewFile()
	defer f.Close()
	sheet := "Results"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	head := make([]any, len(resultHeader))
	for i, h := range resultHeader {
		head[i] = h
	}
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	for i, l := range lines {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		row := []any{l.File, l.Row, l.ProductKey, l.SKU, string(l.Action), l.ProductID, l.VariantID, l.Message}
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(w)
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

func writePlan(path string, plan *Plan) error {
	out := planJSON{Mode: plan.Mode, Products: []planProductJSON{}}
	for _, pp := range plan.Products {
		pj := planProductJSON{Key: pp.P.Key, Name: pp.P.Name.S, Action: pp.Action, Reason: pp.Reason, Changes: pp.Changes}
		if pp.Live != nil {
			pj.ID = string(pp.Live.ID)
		}
		for _, vp := range pp.Variants {
			vj := planVariantJSON{Key: vp.Key, SKU: vp.V.SKU, Row: vp.V.Row.String(), Action: vp.Action, Reason: vp.Reason, Changes: vp.Changes}
			if vp.Live != nil {
				vj.ID = string(vp.Live.ID)
			}
			pj.Variants = append(pj.Variants, vj)
		}
		out.Products = append(out.Products, pj)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}
