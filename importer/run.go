package importer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"lading/api"
	"lading/catalog"
	"lading/engine"
	"lading/images"
	"lading/paths"
	"lading/plural"
	"lading/pool"
	"lading/source"
	"lading/state"
)

// Options configure one import. Its State remembers runs, intents and
// ids (a dry run needs none); BatchSize counts records (0: 50).
type Options struct {
	engine.Options
	// MappingText is the mapping file's content, part of the run's identity.
	MappingText []byte
	Mode        Mode
	// ReadIDs reads the variants of created products back at the end, to
	// give their ids in the results file and remember them in the state.
	// It costs a read per 250 created products; without it, a created
	// product's variants have no id in the results.
	ReadIDs bool
	// PlanFile, when set, receives the plan as JSON. With images, they
	// are all fetched and decided before anything is written, for the
	// plan to list them.
	PlanFile string
	// Images says how the images the mapping names are fetched; its Dir
	// (the folder of the paths) defaults to the input's folder, its
	// Concurrency to Concurrency. NoImages leaves them out.
	Images   images.Options
	NoImages bool
	// Incremental compares the file with what the last incremental
	// import found of its products (see Marks), reading from the account
	// only what changed there since and the products the file changed;
	// it needs State.
	Incremental bool
}

// words are how an import speaks of its work.
var words = engine.Words{Job: "import", Record: "record", Again: "run the same command again", Writes: "the catalog"}

// Report says what an import did. Its Traffic is every request sent:
// writes, and reads (the live-catalog snapshot, look-ups of unanswered
// writes, ids read back).
type Report struct {
	engine.Report
	Mode     Mode          `json:"mode"`
	PlanFile string        `json:"plan_file,omitempty"`
	Products engine.Counts `json:"products"`
	Variants engine.Counts `json:"variants"`
	// RequestsPlanned is the number of writes the plan needs, images
	// included (known when they were decided: in a dry run, or with a
	// plan file).
	RequestsPlanned int `json:"requests_planned"`
	// Images counts the images by what became of them; ImageBytes is the
	// size of those uploaded (or to upload, in a dry run); ImageRequests
	// the writes they cost (or would). Fetched counts what was fetched.
	Images        engine.Counts `json:"images,omitempty"`
	ImageBytes    int64         `json:"image_bytes,omitempty"`
	ImageRequests int           `json:"image_requests,omitempty"`
	Fetched       *images.Stats `json:"fetched,omitempty"`
	// Incremental says what an incremental import took from the marks.
	Incremental *IncrementalReport `json:"incremental,omitempty"`
}

// IncrementalReport says what an incremental import took from the marks
// of the last: how many products it took for equal to the account's
// without reading them, the day from which it read the account's
// changes, and why it compared the whole file, when it did.
type IncrementalReport struct {
	Marked int    `json:"marked"`
	Since  string `json:"since,omitempty"`
	Whole  string `json:"whole,omitempty"`
}

// maxRounds bounds how often batches that were not applied, or whose
// outcome is unknown, are reconciled and sent again.
const maxRounds = 5

type importer struct {
	Options
	run  *state.Run
	prev map[string]engine.Status // keys written by earlier attempts of the run

	mu sync.Mutex
	// retry holds the products of batches not written in this round, with
	// why: they are looked up and planned again in the next.
	retry map[*ProductPlan]engine.Setback
	// round is the current round of sending (1 to maxRounds), recs its
	// records.
	round int
	recs  []*record
	// live is the snapshot the first round's records were planned from.
	live *Live
	// fatal stops the import: the service refused the token.
	fatal error
	// imgs are the images of the products, nil when none are imported.
	imgs *imageWork
	// marks are the products' marks of an incremental import.
	marks *Marks
	// sized is the account's size, read beside the work before the plan.
	sized *sizing
	// early is the import's fingerprint, made beside the read.
	early *fingerprinting
}

// Fingerprint identifies an import so that running the same command again
// resumes it: mode, scope, mapping, how the files are read beyond what the
// mapping says (read: the sheets, a header row given on the command line)
// and the files' content.
func Fingerprint(scope string, mode Mode, mappingText []byte, read string, files ...string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "import\x00%s\x00%s\x00", scope, mode)
	h.Write(mappingText)
	fmt.Fprintf(h, "\x00%s\x00", read)
	if err := paths.HashFiles(h, files...); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fingerprinting makes an import's fingerprint beside the read of its
// input, once every file of it is open: the sheets read are part of it.
type fingerprinting struct {
	x             *importer
	files, sheets []string
	done          chan struct{} // closed once fp and err are set
	fp            string
	err           error
}

// startFingerprint gets ready to make the fingerprint of an import that
// keeps one (not a dry run), as its files are opened; nil for another.
func (x *importer) startFingerprint() *fingerprinting {
	if x.DryRun {
		return nil
	}
	f := &fingerprinting{x: x, files: []string{x.Input}}
	if x.Mapping.Join != nil {
		f.files = append(f.files, JoinedFile(x.Input, x.Mapping.Join.File))
	}
	return f
}

// opened is told the sheet of each file read as it is opened (and its
// header fits the mapping), in order, and starts the fingerprint after the
// last: a file the mapping does not fit is not hashed in vain.
func (f *fingerprinting) opened(sheet string) {
	if f == nil || len(f.sheets) == len(f.files) {
		return
	}
	if f.sheets = append(f.sheets, sheet); len(f.sheets) < len(f.files) {
		return
	}
	f.done = make(chan struct{})
	go func() {
		defer close(f.done)
		f.fp, f.err = Fingerprint(f.x.Scope, f.x.Mode, f.x.MappingText, readAs(f.sheets, f.x.Mapping.Source.HeaderRow), f.files...)
	}()
}

// fingerprint is the fingerprint of the import of in: the one made beside
// the read when it was of the same files and sheets, else one made now.
func (x *importer) fingerprint(in *Input) (string, error) {
	if f := x.early; f != nil && f.done != nil && slices.Equal(f.files, in.Files) && slices.Equal(f.sheets, in.Sheets) {
		<-f.done
		return f.fp, f.err
	}
	return Fingerprint(x.Scope, x.Mode, x.MappingText, readAs(in.Sheets, x.Mapping.Source.HeaderRow), in.Files...)
}

// wait waits for the fingerprint under way, if any.
func (f *fingerprinting) wait() {
	if f != nil && f.done != nil {
		<-f.done
	}
}

// readAs says how the files of an import are read beyond what the mapping
// says, for its fingerprint: the sheets read and the header row.
func readAs(sheets []string, headerRow int) string {
	return fmt.Sprintf("sheets %q, header row %d", sheets, headerRow)
}

// Import reads the input through the mapping, plans it against the live
// catalog and, unless DryRun, writes it, recording every batch in the state
// before sending it. Running it again after an interruption continues.
func Import(ctx context.Context, o Options) (*Report, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	start, stats0 := time.Now(), o.Client.Stats()
	x := &importer{Options: o, retry: map[*ProductPlan]engine.Setback{}}
	rep := &Report{Mode: o.Mode}
	rep.Input, rep.DryRun = o.Input, o.DryRun

	x.early = x.startFingerprint()
	defer x.early.wait()
	in, err := x.read(ctx, rep)
	if err != nil {
		return nil, err
	}
	x.sized = startSizing(ctx, x.Client, in.Products)
	defer x.sized.stop()
	if err := x.startRun(ctx, in, rep); err != nil {
		return nil, err
	}
	if x.run != nil {
		// Unfinished when Import returns early, the run waits to be
		// resumed.
		defer x.State.LeaveRun(x.run.ID)
	}
	if err := x.prepare(ctx, in); err != nil {
		return nil, err
	}
	defer x.imgs.close()
	planner, plan, err := x.plan(ctx, in, rep)
	if err != nil {
		return nil, err
	}
	invalid := invalidRows(in)
	if err := x.sendPlan(ctx, planner, plan, invalid); err != nil {
		return nil, err
	}
	return x.finish(ctx, in, plan, invalid, rep, stats0, start)
}

// read reads the input through the mapping and says what it read.
func (x *importer) read(ctx context.Context, rep *Report) (*Input, error) {
	in, err := readInput(ctx, x.Mapping, x.Input, x.Limits, x.Progress.Reading, x.early.opened)
	if err != nil {
		return nil, err
	}
	rep.Sheet = in.Sheets[0]
	x.Progress.Say("read %s of %s: %s", plural.Count(in.Rows, "row"), source.Label(x.Input, rep.Sheet), plural.Count(len(in.Products), "product"))
	return in, nil
}

// prepare resumes the images an earlier attempt left, starts the images of
// the input's products (x.imgs, for the caller to close) and gives the ids
// the state remembers for its products.
func (x *importer) prepare(ctx context.Context, in *Input) error {
	if err := x.resumeImages(ctx); err != nil {
		return err
	}
	var err error
	x.imgs, err = x.startImages(ctx, in.Products)
	return err
}

// sendPlan carries out the plan, sends its images and, when asked and
// not interrupted, reads back the ids of the variants it created.
func (x *importer) sendPlan(ctx context.Context, planner *Planner, plan *Plan, invalid int) error {
	if err := x.carryOut(ctx, planner, plan, invalid); err != nil {
		return err
	}
	if err := x.sendImages(ctx, plan); err != nil {
		return err
	}
	interrupted := ctx.Err() != nil
	if !x.DryRun && !interrupted && x.ReadIDs {
		if err := x.readIDs(ctx, plan, planner.Live.Total); err != nil {
			x.Logger.Warn("could not read back the ids of the created variants; the import itself is complete", "err", err)
		}
	}
	return nil
}

// finish writes the results file, fills in the report and ends the run;
// its error is how the import ended (see engine.Report.Err: the service
// refusing the token, an interruption, a strict import's invalid rows),
// or the state failing to record the end.
func (x *importer) finish(ctx context.Context, in *Input, plan *Plan, invalid int, rep *Report, stats0 api.Stats, start time.Time) (*Report, error) {
	var err error
	rep.Results = x.ResultsFile
	saved := x.saveMarks(ctx, plan)
	rep.Rows, err = writeResults(rep.Results, in, plan, x.imgs != nil)
	saved()
	if err != nil {
		return nil, err
	}
	rep.Products, rep.Variants = plan.Summary()
	x.imageSummary(plan, rep)
	rep.Ended(ctx, x.Client, stats0, start)
	strict := 0
	if x.Strict && !x.DryRun {
		strict = invalid
	}
	return rep, engine.EndRun(ctx, x.State, x.run, rep.Rows, rep.Err(x.fatal, strict, words))
}

// withDefaults checks o and fills in what was left zero.
func (o Options) withDefaults() (Options, error) {
	if o.Mode == "" {
		o.Mode = ModeUpsert
	}
	return o, o.Check("import", 50, false)
}

// startRun starts the run in the state, or resumes the unfinished run of
// the same import, learning what its earlier attempts wrote. A dry run has
// no run.
func (x *importer) startRun(ctx context.Context, in *Input, rep *Report) error {
	if x.DryRun {
		return nil
	}
	fp, err := x.fingerprint(in)
	if err != nil {
		return err
	}
	run, resumed, err := x.State.StartRun(ctx, fp, "import", map[string]string{"input": x.Input, "mode": string(x.Mode)})
	if err != nil {
		return err
	}
	x.run, rep.RunID, rep.Resumed = run, run.ID, resumed
	if !resumed {
		return nil
	}
	x.Logger.Info("resuming an unfinished run of this import", "run", run.ID)
	return x.loadPrevious(ctx)
}

// plan reads the part of the live catalog the input touches and classifies
// every product against it, writing the plan file if asked.
func (x *importer) plan(ctx context.Context, in *Input, rep *Report) (*Planner, *Plan, error) {
	x.marks = x.newMarks(in)
	// Products found equal are planned unchanged, whose data no plan keeps.
	live, err := FetchLive(ctx, x.Client, Want{Products: in.Products, Remember: x.rememberIDs, ReleaseEqual: true, Marks: x.marks, Sized: x.sized})
	x.marks.summedAll() // before the plan lets go of the rows' data
	if err != nil {
		return nil, nil, err
	}
	x.sayMarks(rep)
	// The rows' variant data is let go once planned where nothing is
	// written from it: in a dry run every product's.
	planner := &Planner{Live: live, Mode: x.Mode, RememberedIDs: live.Remembered, Keep: writes}
	if x.DryRun {
		planner.Keep = func(*ProductPlan) bool { return false }
	}
	plan := planner.Plan(in.Products)
	x.imgs.attach(plan)
	if x.DryRun || x.PlanFile != "" {
		if err := x.decideAll(ctx, plan); err != nil {
			return nil, nil, err
		}
	}
	rep.RequestsPlanned = plan.requests(x.BatchSize) + plan.imageRequests(x.BatchSize)
	if x.PlanFile != "" {
		if err := writePlan(x.PlanFile, plan); err != nil {
			return nil, nil, err
		}
		rep.PlanFile = x.PlanFile
	}
	return planner, plan, nil
}

// carryOut sends the plan's writes (none in a dry run, or in a strict run
// with invalid rows) and settles every product of the plan with what
// happened to it. Its error is fatal; an interruption, or the service
// refusing the token, is not: the rows say what happened, and finish
// reports it.
func (x *importer) carryOut(ctx context.Context, planner *Planner, plan *Plan, invalid int) error {
	switch {
	case x.DryRun:
		return nil
	case x.Strict && invalid > 0:
		for _, pp := range plan.Products {
			if pp.Action != engine.Failed {
				pp.skip(fmt.Sprintf("not sent: %d rows of the input are invalid and this import is strict (all or nothing); fix them and run it again", invalid))
			}
		}
	default:
		// After a cancellation, execute's error (the context's, or a
		// reconciling read's) is the interruption.
		if err := x.execute(ctx, plan, plan.records(), planner); err != nil && ctx.Err() == nil && err != x.fatal {
			return err
		}
	}
	if ctx.Err() != nil || x.fatal != nil {
		x.stopped()
	}
	x.applyPrevious(plan)
	return nil
}

func invalidRows(in *Input) int {
	n := len(in.Errors)
	for _, p := range in.Products {
		if !p.Valid() {
			seen := map[catalog.RowRef]bool{}
			for _, e := range p.Errs() {
				seen[e.Row] = true
			}
			n += len(seen)
		}
	}
	return n
}

// rememberIDs reads the ids earlier runs gave the products of keys (see
// Want.Remember): after an interruption too, a local read that completes
// the plan by which the import reports what it did not send.
func (x *importer) rememberIDs(ctx context.Context, keys []string) (map[string]string, error) {
	if x.State == nil {
		return nil, nil
	}
	return x.State.IDs(context.WithoutCancel(ctx), state.KeyProducts(x.Scope), keys)
}

// loadPrevious learns what earlier attempts of the run wrote, so that rows
// they created are reported as created, not unchanged.
func (x *importer) loadPrevious(ctx context.Context) error {
	intents, err := x.State.Intents(ctx, x.run.ID)
	if err != nil {
		return err
	}
	kinds, err := x.recordKinds(ctx, intents)
	if err != nil {
		return err
	}
	x.prev = map[string]engine.Status{}
	for _, it := range intents {
		if it.Outcome == state.OutcomeRejected || it.Outcome == state.OutcomeNotApplied {
			continue // it wrote nothing
		}
		// Open intents may or may not have been applied: planning against
		// the live catalog (which looks their keys up) settles them below.
		for i, k := range it.Keys {
			act := engine.Updated
			switch kinds(it, i) {
			case KindProductCreate, KindVariantCreate:
				act = engine.Created
			case KindProductArchive:
				act = engine.Archived
			case KindProductDelete, KindVariantDelete:
				act = engine.Deleted
			}
			if _, ok := x.prev[k]; !ok || act == engine.Created {
				x.prev[k] = act
			}
		}
	}
	return nil
}

// recordKinds gives the kind of each record of intents: their batch's, or
// for a batch of mixed kinds what its change says it did.
func (x *importer) recordKinds(ctx context.Context, intents []state.Intent) (func(it state.Intent, i int) string, error) {
	var mixed []int64
	for _, it := range intents {
		if it.Kind == KindProductWrite || it.Kind == KindVariantWrite {
			mixed = append(mixed, it.ID)
		}
	}
	changes := map[int64]map[int]*state.Change{}
	if len(mixed) > 0 {
		cs, err := x.State.IntentChanges(ctx, mixed)
		if err != nil {
			return nil, err
		}
		for i := range cs {
			c := &cs[i]
			if changes[c.IntentID] == nil {
				changes[c.IntentID] = map[int]*state.Change{}
			}
			changes[c.IntentID][c.Seq] = c
		}
	}
	return func(it state.Intent, i int) string { return kindOf(it.Kind, changes[it.ID][i]) }, nil
}

// applyPrevious reports as created, updated, archived or deleted what an
// earlier attempt of the run wrote and the live catalog now shows done
// (unchanged, archived already, or no longer there).
func (x *importer) applyPrevious(plan *Plan) {
	if x.prev == nil {
		return
	}
	for _, pp := range plan.Products {
		if a, ok := x.prev[pp.P.Key]; ok && (pp.Action == engine.Unchanged || pp.missing()) {
			pp.set(a, "")
			if pp.why != nil {
				pp.why.missing = false
			}
		}
		whole := pp.Action == engine.Created || pp.Action == engine.Archived || pp.Action == engine.Deleted
		for _, vp := range pp.variants() {
			if vp.Action() != engine.Unchanged && !vp.missing() {
				continue
			}
			if a, ok := x.prev[vp.Key()]; ok {
				vp.set(a, "")
			} else if a := x.prev[pp.P.Key]; a == engine.Created || (whole && a == pp.Action) {
				vp.set(a, "")
			}
		}
	}
}

// execute sends the plan's records in batches and reconciles batches that
// were not applied or whose outcome is unknown, in rounds.
func (x *importer) execute(ctx context.Context, plan *Plan, recs []*record, planner *Planner) error {
	x.recs, x.live = recs, plan.live
	if x.run != nil {
		if err := x.settleOpenIntents(ctx, plan); err != nil {
			return err
		}
	}
	for round := 1; ; round++ {
		x.round = round
		bs := batches(recs, x.BatchSize)
		x.Progress.Writing("writing "+plural.Count(len(plan.Products), "product"), len(recs), len(bs), "record")
		if err := x.sendAll(ctx, bs); err != nil {
			return err
		}
		if len(x.retry) == 0 || ctx.Err() != nil {
			return ctx.Err()
		}
		if round == maxRounds {
			for pp, why := range x.retry {
				pp.fail(words.GaveUp(why, round))
			}
			return nil
		}
		next, err := x.replan(ctx, planner, round)
		if err != nil {
			return err
		}
		recs = next
	}
}

// replan looks up in the account what the products of the batches not
// written in round touched, plans them again and returns the records of
// what is still to do, carried out on behalf of the original plans.
func (x *importer) replan(ctx context.Context, planner *Planner, round int) ([]*record, error) {
	var again []*catalog.Product
	byProduct := map[*catalog.Product]*ProductPlan{}
	// Products created in earlier rounds are known by their ids.
	remembered := maps.Clone(planner.RememberedIDs)
	if remembered == nil {
		remembered = map[string]string{}
	}
	for pp := range x.retry {
		again = append(again, pp.P)
		byProduct[pp.P] = pp
		if id := pp.ID(); id != "" {
			remembered[pp.P.Key] = string(id)
		}
	}
	fresh, err := FetchLive(ctx, x.Client, Want{Products: again, Remembered: remembered, Remember: x.rememberIDs, ReleaseEqual: true})
	if err != nil {
		return nil, err
	}
	x.Logger.Info("looking up writes that got no answer before sending them again", "products", len(again), "round", round+1)
	sub := (&Planner{Live: fresh, Mode: planner.Mode, RememberedIDs: fresh.Remembered, Keep: planner.Keep}).Plan(again)
	sub.live = fresh
	if err := x.settleOpenIntents(ctx, sub); err != nil {
		return nil, err
	}
	x.retry = map[*ProductPlan]engine.Setback{}
	origVariant := map[*VariantPlan]*VariantPlan{}
	for _, npp := range sub.Products {
		orig := byProduct[npp.P]
		mergePlan(orig, npp)
		for i, nvp := range npp.variants() {
			origVariant[nvp] = orig.variants()[i]
		}
	}
	recs := sub.records()
	for _, r := range recs {
		// Built from the re-plan, then carried out on behalf of the
		// original plans.
		r.build(sub.live)
		r.pp = byProduct[r.pp.P]
		if r.vp != nil {
			r.vp = origVariant[r.vp]
		}
	}
	x.recs = recs
	return recs, nil
}

// mergePlan folds a re-plan into the original: what the first plan meant to
// create or update and the re-plan finds done keeps the original action and
// changes (the results file reports them).
func mergePlan(orig, npp *ProductPlan) {
	// What the re-plan finds gone was deleted by the write it looked up.
	done := npp.missing() && orig.Action == engine.Deleted
	if (npp.Action == engine.Failed || npp.Action == engine.Skipped) && !done {
		orig.set(npp.Action, npp.Reason())
	}
	if npp.Live != nil {
		orig.Live = npp.Live
	}
	for i, nvp := range npp.variants() {
		ovp := orig.variants()[i]
		if nvp.Live != nil {
			ovp.Live = nvp.Live
		} else if id, ok := npp.variantID(i); ok {
			// Found equal by the look-up: its id is npp's live product's.
			ovp.Live = &LiveVariant{ID: id}
		}
		if (nvp.Action() == engine.Failed || nvp.Action() == engine.Skipped) && !done && !(nvp.missing() && ovp.Action() == engine.Deleted) {
			ovp.set(nvp.Action(), nvp.Reason())
		}
		// What remains to write is in the re-plan's records; the original
		// changes stay for the results file when nothing remains.
		if len(nvp.Changes()) > 0 {
			ovp.setChanges(nvp.Changes(), nvp.Tiers())
		}
	}
	if len(npp.Changes()) > 0 {
		orig.setChanges(npp.Changes(), npp.TagsChanged())
	}
}

// settleOpenIntents settles the intents an earlier attempt left open (sent
// or about to be sent when it stopped): the plan was made from the live
// catalog, so it tells whether their records were applied. A create was
// applied if its record now exists; an update if nothing is left to
// change; an archive if the product is archived; a delete if the record
// is gone. Nothing of theirs is re-sent blindly: what is missing was
// planned again. Which records were written, with the ids of those
// created, is recorded with the run's changes.
func (x *importer) settleOpenIntents(ctx context.Context, plan *Plan) error {
	open, err := x.State.OpenIntents(ctx, x.run.ID)
	if err != nil || len(open) == 0 {
		return err
	}
	kinds, err := x.recordKinds(ctx, open)
	if err != nil {
		return err
	}
	products, variants := foundIn(plan)
	for _, it := range open {
		if it.Kind == KindFileUpload || it.Kind == KindFileDelete {
			continue // resumeImages checked them
		}
		took := map[int]string{}
		for i, k := range it.Keys {
			kind, seen := kinds(it, i), products
			if strings.HasPrefix(kind, "variants.") {
				seen = variants
			}
			if f := seen[k]; f.written(kind) {
				took[i] = f.id
			}
		}
		outcome := state.OutcomePartial
		switch len(took) {
		case len(it.Keys):
			outcome = state.OutcomeApplied
		case 0:
			outcome = state.OutcomeNotApplied
		}
		note, _ := json.Marshal(map[string]any{"reconciled": "keys looked up in the live catalog", "applied": len(took), "of": len(it.Keys)})
		if err := x.State.Settle(ctx, it.ID, state.Settlement{Outcome: outcome, Results: note, Took: took}); err != nil {
			return err
		}
	}
	return nil
}

// found is what a plan found in the account of a record a batch wrote.
type found struct {
	planned, exists, current, archived bool
	id                                 string
}

// written reports whether a batch of kind wrote the record found so.
func (f found) written(kind string) bool {
	switch kind {
	case KindProductCreate, KindVariantCreate:
		return f.exists
	case KindProductArchive:
		return f.archived
	case KindProductDelete, KindVariantDelete:
		return f.planned && !f.exists
	}
	return f.current
}

// foundIn is what plan found of its products and variants, by key.
func foundIn(plan *Plan) (products, variants map[string]found) {
	products, variants = map[string]found{}, map[string]found{}
	for _, pp := range plan.Products {
		f := found{planned: true}
		if lp := pp.Live; lp != nil {
			f = found{planned: true, exists: true, current: len(pp.Changes()) == 0, archived: lp.Archived, id: string(lp.ID)}
		}
		products[pp.P.Key] = f
		for j, vp := range pp.variants() {
			f := found{planned: true}
			if id, ok := pp.variantID(j); ok {
				f = found{planned: true, exists: true, current: len(vp.Changes()) == 0, id: string(id)}
			}
			variants[vp.Key()] = f
		}
	}
	return products, variants
}

// sendAll sends the batches through the shared pool: at most Concurrency
// at once, and after a cancellation or a refused token none is started
// (their records wait for the next round, which will not come).
func (x *importer) sendAll(ctx context.Context, bs []*batch) error {
	return pool.Run(ctx, bs, x.Concurrency, func(ctx context.Context, b *batch) error {
		if err := x.send(ctx, b); err != nil {
			return err
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		return x.fatal
	}, func(b *batch) { x.markRetry(b, engine.Setback{Kind: engine.NotSent}) })
}

func (x *importer) markRetry(b *batch, why engine.Setback) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, r := range b.records {
		x.retry[r.pp] = why
		r.settled = true
	}
}

// stopped settles what was left undone when the import stopped early
// (interrupted, or the token refused): the products of a write that got no
// answer may have been written and fail, saying so; those waiting for
// another round, and the records never sent, are skipped.
func (x *importer) stopped() {
	for pp, why := range x.retry {
		if why.Kind == engine.NoAnswer {
			pp.fail(words.GaveUp(why, x.round))
		} else {
			pp.skip(notSentMessage)
		}
	}
	for _, r := range x.recs {
		if r.settled {
			continue
		}
		if _, waiting := x.retry[r.pp]; waiting {
			continue
		}
		switch r.kind {
		case kindProductCreate, kindProductArchive, kindProductDelete:
			r.pp.skip(notSentMessage)
		case kindProductUpdate:
			r.pp.set(engine.Skipped, notSentMessage)
		default:
			r.vp.set(engine.Skipped, notSentMessage)
		}
	}
}

// send writes one batch: intent first, with the changes its records
// make, then the request, then the outcome.
func (x *importer) send(ctx context.Context, b *batch) error {
	n := len(b.records)
	products := make([]api.ProductWrite, 0, n)
	variants := make([]api.VariantWrite, 0, n)
	changes := make([]state.Change, n)
	for i, r := range b.records {
		r.build(x.live)
		changes[i] = r.change(i)
		if r.product != nil {
			products = append(products, *r.product)
		} else {
			variants = append(variants, *r.variant)
		}
		r.product, r.variant = nil, nil // the batch holds the body now
	}
	body, write, err := x.writer(b.class, products, variants)
	if err != nil {
		return err
	}
	p, err := engine.Post(ctx, x.State, x.run, b.kind(), b.keys(), body, changes, write)
	if err != nil {
		return err
	}
	x.Progress.Sent(n, p.Err == nil)
	return x.settle(ctx, b, p)
}

// writer is the request of a batch of class, and what the state records
// of it: its records, encoded once, which the request sends as they are;
// archives go as one bulk archive of their ids.
func (x *importer) writer(class writeClass, products []api.ProductWrite, variants []api.VariantWrite) ([]byte, func(context.Context) (*api.WriteResult, error), error) {
	switch class {
	case classVariants:
		enc, err := api.Encode(variants)
		return enc.JSON(), func(ctx context.Context) (*api.WriteResult, error) { return x.Client.Variants.WriteEncoded(ctx, enc) }, err
	case classArchive:
		ids := make([]api.ID, len(products))
		for i, p := range products {
			ids[i] = p.ID
		}
		enc, err := api.Encode(products)
		return enc.JSON(), func(ctx context.Context) (*api.WriteResult, error) { return x.Client.Products.BulkArchive(ctx, ids) }, err
	}
	enc, err := api.Encode(products)
	return enc.JSON(), func(ctx context.Context) (*api.WriteResult, error) { return x.Client.Products.WriteEncoded(ctx, enc) }, err
}

// settle settles what became of a sent batch on the plans of its records,
// and records an answer record by record in the state.
func (x *importer) settle(ctx context.Context, b *batch, p *engine.Posted) error {
	for _, r := range b.records {
		r.settled = true
	}
	switch p.Class {
	case api.Applied:
		// The records the service refused one by one (a 200 or a 400
		// answer) are in the result, never in the error.
		return x.settleAnswer(ctx, b, p.Intent, p.Result)
	case api.Rejected:
		// Refused as a whole, and it would be again: its rows fail now.
		msg := words.Refused(p.Err)
		x.mu.Lock()
		if errors.Is(p.Err, api.ErrAccessDenied) && x.fatal == nil {
			x.fatal = &engine.StoppedError{Job: words.Job, Err: p.Err}
		}
		for _, r := range b.records {
			x.recordFailed(r, msg)
		}
		x.mu.Unlock()
		return nil
	case api.Retryable:
		// Nothing was applied: its products are looked up and planned
		// again before anything of them goes again.
		x.markRetry(b, engine.SetbackOf(p.Err))
		return nil
	}
	// It may have been applied: its products are looked up and planned
	// again, which settles what it wrote (settleOpenIntents).
	x.markRetry(b, engine.SetbackOf(p.Err))
	return nil
}

// settleAnswer records a batch the service answered record by record: the
// ids it gave, and the records it refused.
func (x *importer) settleAnswer(ctx context.Context, b *batch, intent int64, res *api.WriteResult) error {
	failed := map[int]api.RecordError{}
	for _, f := range res.Failed {
		failed[f.Index] = f
	}
	outcome := state.OutcomePartial
	switch len(failed) {
	case 0:
		outcome = state.OutcomeApplied
	case len(b.records):
		outcome = state.OutcomeRejected
	}
	ids, took := map[string]string{}, map[int]string{}
	x.mu.Lock()
	for i, r := range b.records {
		f, bad := failed[i]
		var id api.ID
		if i < len(res.IDs) {
			id = res.IDs[i]
		}
		switch {
		case bad && f.Whole:
			// Not written, for other records' errors: it goes again
			// in the next round, without them.
			x.retry[r.pp] = engine.Setback{Kind: engine.WithOthers, Cause: f.Message}
			continue
		case bad && f.Field == "id" && (r.kind == kindProductArchive || r.kind == kindProductDelete || r.kind == kindVariantDelete):
			x.vanished(r)
			continue
		case bad:
			x.refuse(r, f)
			continue
		case id != "" && r.kind == kindProductCreate:
			r.pp.more().created = id
			ids[r.key()] = string(id)
		case id != "" && r.kind == kindVariantCreate && r.vp.V.SKU() != "":
			r.vp.Live = &LiveVariant{ID: id}
		}
		took[i] = string(id)
	}
	x.mu.Unlock()
	results, _ := json.Marshal(map[string]any{"ids": res.IDs, "failed": failed})
	return x.State.Settle(ctx, intent, state.Settlement{Outcome: outcome, Results: results, Took: took,
		Keys: []state.Keys{{Scope: state.KeyProducts(x.Scope), Put: ids}}})
}

// refuse marks a record the service refused as failed, naming the row and
// column of the value it refused where the mapping tells them. The caller
// holds x.mu.
func (x *importer) refuse(r *record, f api.RecordError) {
	vp, column := refusedValue(x.Mapping, r, f.Field)
	switch {
	case column == "":
		x.recordFailed(r, recordRefusedMessage(r.vp == nil, f))
	case vp == nil:
		x.recordFailed(r, productValueRefusedMessage(column, f.Message))
	case vp == r.vp:
		x.recordFailed(r, valueRefusedMessage(column, f.Message))
	default:
		// A variant of a product create: the product's other rows
		// point at it.
		x.recordFailed(r, rowRefusedMessage(vp.V.Row(), column, f.Message))
		vp.set(vp.Action(), valueRefusedMessage(column, f.Message))
	}
}

// vanished settles a record that archives or deletes what the account
// no longer has (it went between the reading and the write): reported as
// not there, as planning would have. The caller holds x.mu.
func (x *importer) vanished(r *record) {
	what := "archive"
	if r.kind != kindProductArchive {
		what = "delete"
	}
	if r.vp != nil {
		r.vp.gone(fmt.Sprintf("variant %s is no longer in the account: there is nothing to %s", r.vp.Key(), what))
		return
	}
	r.pp.nothingTo(what)
}

// recordFailed marks what a refused record carried as failed, saying msg.
// The caller holds x.mu.
func (x *importer) recordFailed(r *record, msg string) {
	if r.vp != nil {
		r.vp.set(engine.Failed, msg)
		return
	}
	if r.kind == kindProductCreate || r.kind == kindProductArchive || r.kind == kindProductDelete {
		r.pp.fail(msg)
		return
	}
	r.pp.set(engine.Failed, msg)
}

// readIDs reads back the variants of the products this run created, to
// learn their ids for the results file and the state's SKU cache, with the
// fewest requests: the products by id, lookupChunk a request, or the whole
// Variants listing when the account is small enough to take fewer pages.
// accountVariants is how many variants the account had before the run (-1
// when unknown).
func (x *importer) readIDs(ctx context.Context, plan *Plan, accountVariants int) error {
	var ids []api.ID
	createdVariants := 0
	for _, pp := range plan.Products {
		if pp.Action != engine.Created || pp.ID() == "" {
			continue
		}
		for j := range pp.P.Variants {
			if _, ok := pp.variantID(j); !ok {
				ids = append(ids, pp.ID())
				break
			}
		}
		createdVariants += len(pp.P.Variants)
	}
	if len(ids) == 0 {
		return nil
	}
	var (
		live *Live
		err  error
	)
	if listing := pages(accountVariants + createdVariants); accountVariants >= 0 && listing < pages(len(ids)) {
		live, err = readAllVariants(ctx, x.Client)
	} else {
		live, err = fetchProducts(ctx, x.Client, distinct(ids))
	}
	if err != nil {
		return err
	}
	skuIDs := map[string]string{}
	for _, pp := range plan.Products {
		lp := live.Products[pp.ID()]
		if lp == nil || pp.Action != engine.Created { // the listing holds the others too: they keep what they found
			continue
		}
		pp.Live = lp
		for j, vp := range pp.variants() {
			if id, ok := pp.variantID(j); ok && id != "" {
				continue
			}
			if lv := pp.matchVariant(vp, live); lv != nil {
				vp.Live = lv
				if sku := lv.SKU(); sku != "" {
					skuIDs[sku] = string(lv.ID)
				}
			}
		}
	}
	if len(skuIDs) == 0 {
		return nil
	}
	return x.State.PutIDs(ctx, state.KeySKUs(x.Scope), skuIDs)
}
