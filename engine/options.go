package engine

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"lading/api"
	"lading/api/wire"
	"lading/mapping"
	"lading/progress"
	"lading/source"
	"lading/state"
)

// Options are what every job is given; jobs embed them in their own.
type Options struct {
	Client *api.Client
	// State remembers runs, the batches sent and what the job learned of
	// the account (ids, levels); it is required, in dry runs too for the
	// jobs that read it then (see Check).
	State *state.DB
	// Scope separates what is remembered of different accounts (base URL
	// and a hash of the token).
	Scope string

	// Mapping has the job's section; Input is the file it reads.
	Mapping *mapping.Mapping
	Input   string
	// Limits bound what one part and one cell of an XLSX input may unzip
	// to; zero values are the source package's defaults.
	Limits source.Limits

	// Strict sends nothing if any row cannot be sent as it is.
	Strict bool
	// DryRun reads the account and plans, but sends no write.
	DryRun bool
	// BatchSize is how many records go in one write, 1 to
	// wire.MaxWriteRecords; 0 means the job's default.
	BatchSize int
	// Concurrency is how many writes are in flight at once; 0 means 4.
	Concurrency int
	// ResultsFile receives one line per input row (.csv or .xlsx); ""
	// means DefaultResultsPath(Input), or none in a dry run.
	ResultsFile string

	Progress *progress.Progress
	// Logger is told what a person running the job would want to know
	// in passing; nil discards it.
	Logger *slog.Logger
}

// Base is the options every job is given, of a job's options (which
// embed them).
func (o *Options) Base() *Options { return o }

// DefaultResultsPath is the results file next to an input.
func DefaultResultsPath(input string) string { return input + ".results.csv" }

// Check checks the options of a job (job names it in errors) and fills in
// what was left zero: batch is the job's batch size when none is given;
// dryState says the job reads the state in a dry run too.
func (o *Options) Check(job string, batch int, dryState bool) error {
	if o.Client == nil || o.Mapping == nil || (o.State == nil && (dryState || !o.DryRun)) {
		return errors.New(job + ": a run needs a client, a state and a mapping")
	}
	if o.BatchSize == 0 {
		o.BatchSize = batch
	}
	if o.BatchSize < 1 || o.BatchSize > wire.MaxWriteRecords {
		return fmt.Errorf("batch size %d: want 1 to %d records per request", o.BatchSize, wire.MaxWriteRecords)
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.ResultsFile == "" && !o.DryRun {
		o.ResultsFile = DefaultResultsPath(o.Input)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return nil
}
