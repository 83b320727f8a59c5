package slips

import (
	"fmt"
	"strings"

	"lading/engine"
	"lading/results"
)

// result is a row's line in the results file.
type result struct {
	File      string        `csv:"file"`
	Row       int           `csv:"row"`
	Key       string        `csv:"key"`
	Package   string        `csv:"package"`
	SlipID    string        `csv:"slip_id"`
	PackageID string        `csv:"package_id"`
	Action    engine.Status `csv:"action"`
	Message   string        `csv:"message"`
}

// rank orders the actions a row may take from its slip and its shipment:
// the row shows the highest.
var rank = map[engine.Status]int{engine.Unchanged: 0, engine.Updated: 1, engine.ToUpdate: 1, engine.Created: 2, engine.ToCreate: 2, engine.Skipped: 3, engine.Failed: 4, engine.Invalid: 4}

// settleRows gives each pending row of the slips what became of its slip
// and its shipment. In a dry run, records to send are engine.ToCreate or
// engine.ToUpdate.
func settleRows(slips []*slip, lines []Line, dryRun bool) {
	for _, s := range slips {
		s.dry(dryRun)
		byRow := map[int]*pkg{}
		for _, k := range s.packages {
			if s.action.Failed() && k.action == "" {
				k.action, k.msg = engine.Skipped, "not sent: its slip was not sent"
			}
			k.dry(dryRun)
			for _, i := range k.rows {
				byRow[i] = k
			}
		}
		for _, i := range s.rows {
			l := &lines[i]
			if !l.Pending() {
				continue
			}
			l.SlipID = s.id
			var k *entity
			if p := byRow[i]; p != nil {
				k, l.PackageID = &p.entity, p.id
			}
			if a, msg := rowOutcome(&s.entity, k); a != "" {
				l.Set(a, msg)
			}
		}
	}
}

// rowOutcome is what a row shows of its slip s and its shipment k (nil
// when the row gives none): a failure of either, else the more of the
// two that happened. "" when the row was not sent (an interruption).
func rowOutcome(s, k *entity) (engine.Status, string) {
	switch {
	case s.action.Failed() || s.action == "":
		return s.action, s.say("slip")
	case k == nil:
		return s.action, s.say("slip")
	case k.action.Failed() || k.action == engine.Skipped || k.action == "":
		return k.action, k.say("shipment")
	case rank[k.action] > rank[s.action]:
		return k.action, s.say("slip") + "; " + k.say("shipment")
	}
	return s.action, s.say("slip") + "; " + k.say("shipment")
}

// dry settles, in a dry run, the record to send as engine.ToCreate or engine.ToUpdate.
func (e *entity) dry(dryRun bool) {
	if dryRun && e.action == "" && e.sent != nil {
		e.action = engine.ToUpdate
		if e.create {
			e.action = engine.ToCreate
		}
	}
}

// say is what the results line says of the record (a slip or shipment).
func (e *entity) say(what string) string {
	switch e.action {
	case engine.Created, engine.ToCreate, engine.Unchanged:
		return what + " " + string(e.action)
	case engine.Updated, engine.ToUpdate:
		return fmt.Sprintf("%s %s (%s)", what, e.action, changedFields(e.sent))
	}
	return e.msg
}

// entityCounts counts the slips and shipments by what became of them.
func entityCounts(slips []*slip) (ss, ps engine.Counts) {
	ss, ps = engine.Counts{}, engine.Counts{}
	for _, s := range slips {
		ss[cmpOr(s.action, engine.Skipped)]++
		for _, k := range s.packages {
			ps[cmpOr(k.action, engine.Skipped)]++
		}
	}
	return ss, ps
}

func cmpOr(a, def engine.Status) engine.Status {
	if a == "" {
		return def
	}
	return a
}

// writeResults writes one line per input row to path (none when path is
// "") and counts the rows by action.
func writeResults(path string, in *Input) (engine.Counts, error) {
	counts := engine.Counts{}
	for i := range in.Lines {
		counts[in.Lines[i].Action]++
	}
	return counts, results.Write(path, func(yield func(result) bool) {
		for i := range in.Lines {
			l := &in.Lines[i]
			if !yield(result{File: in.File, Row: l.Row, Key: l.Values.Key, Package: strings.TrimSpace(l.Values.Package),
				SlipID: l.SlipID, PackageID: l.PackageID, Action: l.Action, Message: l.Msg}) {
				return
			}
		}
	})
}
