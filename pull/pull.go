// Package pull writes an account's open fulfillments into order files for
// a warehouse system (an export of exporter.PullLines); a pull of new ones
// remembers which fulfillments it wrote, so that the next one only writes
// those no earlier pull of new ones did. A plain pull is a look: it
// remembers nothing.
//
// Each pull writes its file in a folder of its own beside the file's
// place (a warehouse system watching the place does not read there) and
// moves it into place once whole; {time} in the file's name is the pull's
// time ({date} and {month} its day and month), so that each pull keeps its
// own file and a file not yet read is never replaced. The fulfillments are remembered once the file is in
// place. A pull of new ones holds the account's pull lock from Open to
// Close: two pulls must not both write the same new fulfillments.
package pull

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"lading/api"
	"lading/exporter"
	"lading/paths"
	"lading/progress"
	"lading/state"
)

// ErrInterrupted is returned (wrapped) by a pull stopped before its file
// was in place: no file was written and nothing remembered.
var ErrInterrupted = errors.New("pull interrupted: no file was written and nothing remembered; the next pull writes these fulfillments")

// Options configure a Puller.
type Options struct {
	// Export is what each pull writes and how; its Output and Keep are
	// set for each pull, and Resource to exporter.PullLines.
	Export exporter.Options
	// Output is the file to write, with paths.TimeField where the pull's
	// time goes.
	Output string
	State  *state.DB
	// Account keeps apart what the pulls of different accounts wrote.
	Account string
	// New writes only the fulfillments no earlier pull (with New)
	// wrote, and no file when there are none.
	New bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Puller pulls an account's open fulfillments, once or again and again.
type Puller struct {
	o    Options
	lock *state.Lock
}

// CheckOutput checks a file name pattern: its fields ({time}, {date},
// {month}), if anywhere, are in the file's own name.
func CheckOutput(pattern string) error { return paths.CheckFields(pattern) }

// Name is the file a pull at t writes: pattern with its fields filled in
// (paths.Fill), the day and month in loc.
func Name(pattern string, t time.Time, loc *time.Location) string { return paths.Fill(pattern, t, loc) }

// freshName is the file a pull at t writes. A name with fields that an
// earlier pull took (of the same second, for {time}) gets -2, -3, …
// after them: each pull keeps its own file.
func freshName(pattern string, t time.Time, loc *time.Location) string {
	out := Name(pattern, t, loc)
	for i := 2; paths.HasFields(pattern) && i < 1000; i++ {
		if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
			break
		}
		out = Name(lastField.ReplaceAllString(pattern, "${1}-"+strconv.Itoa(i)), t, loc)
	}
	return out
}

// lastField finds the last field of a pattern, which a number follows in
// a name taken already.
var lastField = regexp.MustCompile(`(.*\{(?:time|date|month)\})`)

// Open checks the options and, for New, takes the account's pull lock
// (a *state.LockedError when another process holds it).
func Open(o Options) (*Puller, error) {
	if err := CheckOutput(o.Output); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Export.Resource = exporter.PullLines
	p := &Puller{o: o}
	if o.New {
		l, err := o.State.Hold(state.KeyJob("fulfillments pull", o.Account), "a fulfillments pull (new ones only) of this account")
		if err != nil {
			return nil, err
		}
		p.lock = l
	}
	return p, nil
}

// Close releases the lock.
func (p *Puller) Close() { p.lock.Release() }

// Pull writes one order file and remembers what it wrote; prog (nil for
// none) shows its progress. A New pull that finds nothing new writes no
// file: its Summary has no Files.
func (p *Puller) Pull(ctx context.Context, prog *progress.Progress) (*exporter.Summary, error) {
	o := p.o.Export
	if p.o.New {
		pulled, err := p.o.State.AllIDs(ctx, state.KeyPulled(p.o.Account))
		if err != nil {
			return nil, err
		}
		o.Keep = func(id api.ID) bool { _, done := pulled[string(id)]; return !done }
	}
	out := freshName(p.o.Output, p.o.Now(), p.o.Export.Location)
	stage, err := os.MkdirTemp(filepath.Dir(out), ".lading-pull-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", out, err)
	}
	defer os.RemoveAll(stage)
	o.Output = filepath.Join(stage, filepath.Base(out))
	o.Progress = prog
	sum, err := exporter.Export(ctx, o)
	prog.Finish()
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, fmt.Errorf("%w (%w)", ErrInterrupted, ctx.Err())
	case err != nil:
		return nil, err
	case p.o.New && sum.Records == 0:
		sum.Files = nil
	default:
		if sum.Files, err = moveInto(filepath.Dir(out), sum.Files); err != nil {
			return nil, err
		}
	}
	return sum, p.remember(ctx, sum)
}

// moveInto moves files into dir, keeping their names, and returns their
// new paths.
func moveInto(dir string, files []string) ([]string, error) {
	var moved []string
	for _, f := range files {
		to := filepath.Join(dir, filepath.Base(f))
		if err := os.Rename(f, to); err != nil {
			return moved, fmt.Errorf("putting the order file in place: %w", err)
		}
		moved = append(moved, to)
	}
	return moved, nil
}

// remember records the fulfillments a New pull wrote, now that its file is
// in place (even if the pull is being stopped: they are in the file). A
// pull that is not New is a look: it remembers nothing, so that the next
// New pull still hands its fulfillments to the warehouse.
func (p *Puller) remember(ctx context.Context, sum *exporter.Summary) error {
	if !p.o.New {
		return nil
	}
	pulled := make(map[string]string, len(sum.IDs))
	for _, id := range sum.IDs {
		pulled[id] = "1"
	}
	if err := p.o.State.PutIDs(context.WithoutCancel(ctx), state.KeyPulled(p.o.Account), pulled); err != nil {
		return fmt.Errorf("the order file is written, but which fulfillments it holds could not be remembered (the next pull of new ones would write them again): %w", err)
	}
	return nil
}
