package ops

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"lading/engine"
	"lading/paths"
	"lading/source"
	"lading/state"
)

// A folder job takes each file dropped in its folder once it has settled,
// runs its command on it, and moves it into the folder's done/ subfolder,
// or failed/ when the run failed or any row did, with its results file
// beside it (NAME.results.csv) and, for a run that stopped on an error,
// NAME.error.txt saying why. A file whose run failed for a reason that
// may pass (lading was stopped, another process held the job, the token
// was refused, the service could not be reached) is left where it is and
// taken again at the next look.
//
// Each file taken is recorded in the account's state, by folder, name and
// digest of its content, until it has been moved: a runner killed midway
// runs it again on restart (the job resumes its run, and sends nothing
// twice), or only moves it when its run had ended. A file that comes
// again under the same name is a new file; one that comes again under
// another name is run again, and the job finds its rows done in the
// account.
const (
	DoneFolder   = "done"
	FailedFolder = "failed"
	// stageFolder is where results are written until the file moves.
	stageFolder = ".lading"
)

// Taken reports whether a folder job takes a file of this name: not one
// whose name starts with "." (hidden, or being written by rsync), nor one
// ending in .tmp or .part (being written or uploaded).
func Taken(name string) bool {
	lower := strings.ToLower(name)
	return !strings.HasPrefix(name, ".") && !strings.HasSuffix(lower, ".tmp") && !strings.HasSuffix(lower, ".part")
}

// dropped is the state's record of a file taken and not yet moved.
type dropped struct {
	// Status is taken (its run has not ended), done or failed (it ended;
	// the file goes there).
	Status string `json:"status"`
	// Dest is where the file goes; Error why its run failed.
	Dest  string `json:"dest,omitempty"`
	Error string `json:"error,omitempty"`
}

const statusTaken = "taken"

// folder is a folder job's view of its folder between looks.
type folder struct {
	dir      string
	settling map[string]*source.Settling
}

// watch looks into l's folder every interval and takes each file that
// has settled, one after another, until l is stopped.
func (r *Runner) watch(ctx context.Context, l *loop) {
	f := &folder{dir: l.job.Folder, settling: map[string]*source.Settling{}}
	for {
		r.look(ctx, l.stop, l.job, l.acct, f)
		if !wait(ctx, l.stop, l.job.Every) {
			return
		}
	}
}

// look takes the files of f that have settled, oldest first, and
// returns the outcomes of their runs.
func (r *Runner) look(ctx context.Context, stop <-chan struct{}, j *Job, a *account, f *folder) []Outcome {
	ready, err := r.ready(j, f)
	if err == nil && a.st != nil {
		err = r.forgetGone(ctx, j, a)
	}
	if err != nil {
		r.Logger.Error(fmt.Sprintf("%s %s: looking into %s: %v", j.Account, j.Kind, j.Folder, err), "account", j.Account, "job", j.Name, "err", err.Error())
		return []Outcome{Failed}
	}
	var outs []Outcome
	for _, name := range ready {
		select {
		case <-stop:
			return outs
		default:
		}
		if ctx.Err() != nil {
			return outs
		}
		outs = append(outs, r.take(ctx, j, a, name))
		if n, err := waiting(j.Folder); err == nil {
			r.Metrics.waitingFiles(j, n)
		}
	}
	return outs
}

// waiting counts the files in dir a folder job takes.
func waiting(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() && Taken(e.Name()) {
			n++
		}
	}
	return n, err
}

// ready lists the files of f's folder a job takes, counts them as
// waiting, and returns those that have settled, oldest first.
func (r *Runner) ready(j *Job, f *folder) ([]string, error) {
	entries, err := os.ReadDir(f.dir)
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		mod  time.Time
	}
	var ready []file
	seen := map[string]bool{}
	now := r.now()
	for _, e := range entries {
		if !e.Type().IsRegular() || !Taken(e.Name()) {
			continue
		}
		seen[e.Name()] = true
		s := f.settling[e.Name()]
		if s == nil {
			s = &source.Settling{}
			f.settling[e.Name()] = s
		}
		ok, err := s.Settled(filepath.Join(f.dir, e.Name()), j.Task.Settle, now)
		if err != nil || !ok {
			continue // gone since the listing, or not settled
		}
		fi, err := e.Info()
		if err == nil {
			ready = append(ready, file{e.Name(), fi.ModTime()})
		}
	}
	for name := range f.settling {
		if !seen[name] {
			delete(f.settling, name)
		}
	}
	r.Metrics.waitingFiles(j, len(seen))
	slices.SortFunc(ready, func(a, b file) int { return cmp.Or(a.mod.Compare(b.mod), strings.Compare(a.name, b.name)) })
	names := make([]string, len(ready))
	for i, f := range ready {
		names[i] = f.name
	}
	return names, nil
}

// take runs j on the file called name of its folder and moves it aside;
// a file whose run failed for a reason that may pass stays.
func (r *Runner) take(ctx context.Context, j *Job, a *account, name string) Outcome {
	path := filepath.Join(j.Folder, name)
	key, err := dropKey(path)
	if err == nil && a.st == nil {
		err = a.err
	}
	if err != nil {
		r.Logger.Error(fmt.Sprintf("%s %s: %s: %v", j.Account, j.Kind, path, err), "account", j.Account, "job", j.Name, "file", path, "err", err.Error())
		return Failed
	}
	rec, err := r.record(ctx, a, key)
	if err != nil {
		r.Logger.Error(err.Error(), "account", j.Account, "job", j.Name, "file", path)
		return Failed
	}
	if rec.Status != "" && rec.Status != statusTaken {
		r.moveAside(ctx, j, a, key, path, rec) // its run ended before a kill
		if rec.Status == FailedFolder {
			return Failed
		}
		return OK
	}
	if rec.Status == "" {
		if err := r.putRecord(ctx, a, key, dropped{Status: statusTaken}); err != nil {
			r.Logger.Error(err.Error(), "account", j.Account, "job", j.Name, "file", path)
			return Failed
		}
	}
	results := stagedResults(path, key)
	if err := os.MkdirAll(filepath.Dir(results), 0o755); err != nil {
		r.Logger.Error(err.Error(), "account", j.Account, "job", j.Name, "file", path)
		return Failed
	}
	o, _, err := r.run(ctx, j, a, Target{Input: path, Results: results}, r.now())
	if passes(o, err) {
		return o
	}
	rec = dropped{Status: DoneFolder}
	if o != OK {
		rec.Status = FailedFolder
	}
	if err != nil {
		rec.Error = err.Error()
	}
	if rec.Dest, err = freeName(filepath.Join(j.Folder, rec.Status), name); err == nil {
		err = r.putRecord(ctx, a, key, rec)
	}
	if err != nil {
		r.Logger.Error(fmt.Sprintf("%s %s: %s was run, and could not be moved aside: %v", j.Account, j.Kind, path, err), "account", j.Account, "job", j.Name, "file", path)
		return Failed
	}
	r.moveAside(ctx, j, a, key, path, rec)
	return o
}

// moveAside moves the file at path, whose run ended as rec says, to
// rec.Dest with its results file and error beside it, and forgets it.
func (r *Runner) moveAside(ctx context.Context, j *Job, a *account, key, path string, rec dropped) {
	err := os.MkdirAll(filepath.Dir(rec.Dest), 0o755)
	if err == nil {
		err = os.Rename(stagedResults(path, key), engine.DefaultResultsPath(rec.Dest))
		if errors.Is(err, fs.ErrNotExist) {
			err = nil // the run stopped before it wrote one
		}
	}
	if err == nil && rec.Error != "" {
		err = os.WriteFile(rec.Dest+".error.txt", []byte(rec.Error+"\n"), 0o644)
	}
	if err == nil {
		err = os.Rename(path, rec.Dest)
	}
	if err == nil {
		err = a.st.DeleteIDs(context.WithoutCancel(ctx), state.KeyDropped(a.Name), []string{key})
	}
	if err != nil {
		r.Logger.Error(fmt.Sprintf("%s %s: moving %s to %s: %v", j.Account, j.Kind, path, rec.Dest, err), "account", j.Account, "job", j.Name, "file", path)
		return
	}
	r.Logger.Info(fmt.Sprintf("%s %s: moved %s to %s", j.Account, j.Kind, path, rec.Dest), "account", j.Account, "job", j.Name, "file", path, "moved_to", rec.Dest)
}

// stagedResults is where the results of the dropped file at path (key in
// the state) are written until it moves: in a hidden folder of its
// folder, which no look takes a file from.
func stagedResults(path, key string) string {
	return filepath.Join(filepath.Dir(path), stageFolder, filepath.Base(path)+"."+key[len(key)-12:]+".results.csv")
}

// forgetGone forgets the records of files of j's folder that are no
// longer there (moved or deleted by someone while lading was not
// running): a file that comes again is new.
func (r *Runner) forgetGone(ctx context.Context, j *Job, a *account) error {
	recs, err := a.st.AllIDs(ctx, state.KeyDropped(a.Name))
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(j.Folder)
	if err != nil {
		return err
	}
	var gone []string
	for key := range recs {
		path, _, _ := strings.Cut(key, "\x00")
		if filepath.Dir(path) == dir && !exists(path) {
			gone = append(gone, key)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	return a.st.DeleteIDs(context.WithoutCancel(ctx), state.KeyDropped(a.Name), gone)
}

// dropKey names a dropped file in the state: its folder, its name and a
// digest of its content.
func dropKey(path string) (string, error) {
	h := sha256.New()
	if err := paths.HashFiles(h, path); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return abs + "\x00" + hex.EncodeToString(h.Sum(nil)), nil
}

// record reads the state's record of the dropped file key (empty when
// there is none).
func (r *Runner) record(ctx context.Context, a *account, key string) (dropped, error) {
	got, err := a.st.IDs(ctx, state.KeyDropped(a.Name), []string{key})
	var rec dropped
	if err == nil && got[key] != "" {
		err = json.Unmarshal([]byte(got[key]), &rec)
	}
	return rec, err
}

func (r *Runner) putRecord(ctx context.Context, a *account, key string, rec dropped) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return a.st.PutIDs(context.WithoutCancel(ctx), state.KeyDropped(a.Name), map[string]string{key: string(b)})
}

// freeName is a path in dir for a file called name that takes the place
// of no file there, nor of a results file: name, else name-2, name-3, …
// before its extension.
func freeName(dir, name string) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i < 10000; i++ {
		p := filepath.Join(dir, name)
		if i > 1 {
			p = filepath.Join(dir, stem+"-"+strconv.Itoa(i)+ext)
		}
		if !exists(p) && !exists(engine.DefaultResultsPath(p)) && !exists(p+".error.txt") {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s holds 10,000 files called %s: clear it out", dir, name)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
