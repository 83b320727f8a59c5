package app

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"lading/api"
	"lading/mapping"
	"lading/slips"
)

// How a slips push ends decides the command's error, and so its exit code.
func TestSlipsOutcome(t *testing.T) {
	rep := &slips.Report{Results: "in.csv.results.csv", Rows: slips.Counts{slips.Created: 3, slips.Invalid: 1},
		Lines: make([]slips.Line, 4)}
	tests := []struct {
		name string
		rep  *slips.Report
		err  error
		want string // the error's type and text
	}{
		{"done", &slips.Report{Rows: slips.Counts{slips.Created: 2}}, nil, "<nil>"},
		{"some rows failed", rep, nil, "*app.PartialError: 1 of 4 rows failed; see in.csv.results.csv"},
		{"strict", rep, fmt.Errorf("%w: 1 rows", slips.ErrInvalid), "*app.PartialError: 1 of 4 rows failed; nothing was sent (--strict); see in.csv.results.csv"},
		{"interrupted", rep, fmt.Errorf("%w: push again", slips.ErrInterrupted), "*app.InterruptedError: slips push interrupted: push again"},
		{"mapping", nil, mapping.ErrorList{{File: "m.yaml", Line: 3, Column: 8, Msg: "slips.key: no column"}}, "*app.UsageError: m.yaml:3:8: slips.key: no column"},
		{"fatal", nil, errors.New("state: locked"), "*errors.errorString: state: locked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := slipsOutcome(tt.rep, tt.err)
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
	var b bytes.Buffer
	printSlipsReport(&b, &slips.Report{DryRun: true, Input: "in.csv", Rows: slips.Counts{slips.ToCreate: 2, slips.Unchanged: 1},
		Slips: slips.Counts{slips.ToCreate: 1, slips.Unchanged: 1}, Packages: slips.Counts{slips.ToCreate: 1}, Traffic: api.Traffic{Reads: 1},
		Lines: []slips.Line{{Row: 2, Values: mapping.SlipRow{Key: "K1"}, Action: slips.ToCreate, Msg: "slip to create; shipment to create"}}})
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
