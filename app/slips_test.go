package app

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"lading/api"
	"lading/engine"
	"lading/mapping"
	"lading/slips"
)

// How a slips push ends decides the command's error, and so its exit code.
func TestSlipsOutcome(t *testing.T) {
	t.Parallel()
	rep := &slips.Report{Lines: make([]slips.Line, 4)}
	rep.Results, rep.Rows = "in.csv.results.csv", engine.Counts{engine.Created: 3, engine.Invalid: 1}
	done := &slips.Report{}
	done.Rows = engine.Counts{engine.Created: 2}
	tests := []struct {
		name string
		rep  *slips.Report
		err  error
		want string // the error's type and text
	}{
		{"done", done, nil, "<nil>"},
		{"some rows failed", rep, nil, "*app.PartialError: 1 of 4 rows failed; see in.csv.results.csv"},
		{"strict", rep, fmt.Errorf("%w: 1 row", engine.ErrInvalid), "*app.PartialError: 1 of 4 rows failed; nothing was sent (--strict); see in.csv.results.csv"},
		{"interrupted", rep, fmt.Errorf("%w: push again", engine.ErrInterrupted), "*app.InterruptedError: interrupted: push again"},
		{"mapping", nil, mapping.ErrorList{{File: "m.yaml", Line: 3, Column: 8, Msg: "slips.key: no column"}}, "*app.UsageError: m.yaml:3:8: slips.key: no column"},
		{"fatal", nil, errors.New("state: locked"), "*errors.errorString: state: locked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := outcome(reportOf(tt.rep), tt.err)
			got := "<nil>"
			if err != nil {
				got = fmt.Sprintf("%T: %v", err, err)
			}
			if got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPrintSlipsReport(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	rep := &slips.Report{Slips: engine.Counts{engine.ToCreate: 1, engine.Unchanged: 1}, Packages: engine.Counts{engine.ToCreate: 1},
		Lines: []slips.Line{{Fate: engine.Fate{Row: 2, Action: engine.ToCreate, Msg: "slip to create; shipment to create"}, Values: mapping.SlipRow{Key: "K1"}}}}
	rep.DryRun, rep.Input, rep.Rows, rep.Traffic = true, "in.csv", engine.Counts{engine.ToCreate: 2, engine.Unchanged: 1}, api.Traffic{Reads: 1}
	printSlipsReport(&b, rep)
	want := "slips push, dry run (nothing sent) of in.csv\n" +
		"  rows:      2 to create, 1 unchanged\n" +
		"  slips:     1 to create, 1 unchanged\n" +
		"  shipments: 1 to create\n" +
		"    row 2: K1: slip to create; shipment to create\n" +
		"  requests:  1 read in 0s\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if strings.Contains(b.String(), "results") {
		t.Error("a dry run without a results file names one")
	}
}
