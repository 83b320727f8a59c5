package ui

import (
	"net/http"
	"slices"
	"strings"

	"lading/engine"
	"lading/importer"
	"lading/summary"
)

// shownLines and shownProducts bound what one page shows of a results
// table and of a plan; the downloads hold everything.
const (
	shownLines    = 500
	shownProducts = 200
)

// outcomeView is the page of a dry run or of a run.
type outcomeView struct {
	ID      string
	Work    *work
	Kind    *kind
	O       *outcome
	Header  []string
	Lines   []resultLine
	More    int
	Action  int // the column of the action, -1 when none
	Diff    *diffView
	Message int // the column of the message
}

// resultLine is a line of a results table.
type resultLine struct {
	Cells  []string
	Status engine.Status
}

// diffView is a dry run's plan, filtered: the products whose action is
// Action (all when ""), whose key, name or SKUs hold Query.
type diffView struct {
	Action  string
	Query   string
	Counts  []summary.Count
	Total   int
	Matched int
	Shown   []importer.PlannedProduct
}

func (s *Server) handleOutcome(w http.ResponseWriter, r *http.Request, dry bool) {
	wk, ok := s.workOf(r)
	if !ok {
		s.notFound(w, r, "This file is not known here: lading ui keeps uploads only while it runs. Upload it again.")
		return
	}
	o, title := wk.last, "Results of "+wk.Name
	if dry {
		o, title = wk.dry, "Dry run of "+wk.Name
	}
	if o == nil {
		http.Redirect(w, r, "/work/"+wk.id, http.StatusSeeOther)
		return
	}
	v := outcomeView{ID: wk.id, Work: wk, Kind: wk.kind, O: o, Action: -1, Message: -1}
	if o.table != nil {
		v.Header, v.Action, v.Message = o.table.Header, o.table.Column("action"), o.table.Column("message")
		for i, l := range o.table.Lines {
			if i == shownLines {
				v.More = len(o.table.Lines) - i
				break
			}
			rl := resultLine{Cells: l}
			if v.Action >= 0 && v.Action < len(l) {
				rl.Status = engine.Status(l[v.Action])
			}
			v.Lines = append(v.Lines, rl)
		}
	}
	if o.plan != nil {
		v.Diff = filterPlan(o.plan, r.URL.Query().Get("action"), r.URL.Query().Get("q"))
	}
	s.render(w, r, http.StatusOK, "outcome", title, wk.kind.Name, v)
}

// filterPlan is the plan's products whose action is action (any when "")
// and whose key, name or a variant's SKU holds q, in any case.
func filterPlan(p *importer.PlanFile, action, q string) *diffView {
	v := &diffView{Action: action, Query: q, Total: len(p.Products)}
	counts := engine.Counts{}
	q = strings.ToLower(strings.TrimSpace(q))
	for _, pp := range p.Products {
		counts[pp.Action]++
		if action != "" && string(pp.Action) != action || q != "" && !holds(pp, q) {
			continue
		}
		v.Matched++
		if len(v.Shown) < shownProducts {
			v.Shown = append(v.Shown, pp)
		}
	}
	v.Counts = summary.Counts(counts)
	return v
}

// holds reports whether the product's key, name or a variant's SKU holds
// q (lower case).
func holds(pp importer.PlannedProduct, q string) bool {
	if strings.Contains(strings.ToLower(pp.Key), q) || strings.Contains(strings.ToLower(pp.Name), q) {
		return true
	}
	return slices.ContainsFunc(pp.Variants, func(v importer.PlannedVariant) bool {
		return strings.Contains(strings.ToLower(v.SKU), q) || strings.Contains(strings.ToLower(v.Key), q)
	})
}
