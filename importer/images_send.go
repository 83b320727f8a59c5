package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/plural"
	"lading/state"
)

// Batch kinds of images, as recorded in the state's intents.
const (
	KindFileUpload = "files.upload"
	KindFileDelete = "files.delete"
)

// imageWords and fileWords are how an import speaks of its uploads and of
// the files it deletes.
var (
	imageWords = engine.Words{Job: "import", Record: "image", Again: "run the same command again", Writes: "product files"}
	fileWords  = engine.Words{Job: "import", Record: "file", Again: "run the same command again", Writes: "product files"}
)

// uploadRec is an upload as the state's intent records it: what Check
// looks for in the account when its answer was lost.
type uploadRec struct {
	Product  string `json:"product"`
	Place    string `json:"place"`
	Name     string `json:"name"`
	Size     int64  `json:"size"`
	Hash     string `json:"hash"`
	ETag     string `json:"etag,omitempty"`
	Modified string `json:"modified,omitempty"`
	// Before are the product's files before it: the new one is another.
	Before []string `json:"before,omitempty"`
}

// deleteRec is a file deleted, as the state's intent records it.
type deleteRec struct {
	File    string `json:"file"`
	Product string `json:"product"`
}

// imageChunk is how many images are fetched and decided before their
// uploads are sent; the fetcher works ahead meanwhile.
func (x *importer) imageChunk() int { return max(32, 16*x.Concurrency) }

// resumeImages checks against the account the uploads and deletions an
// earlier attempt of the run sent without an answer, before the images
// are decided: what it finds uploaded is remembered.
func (x *importer) resumeImages(ctx context.Context) error {
	if x.run == nil || x.NoImages {
		return nil
	}
	if err := x.uploader(nil).Resume(ctx); err != nil {
		return err
	}
	return x.deleter().Resume(ctx)
}

// decideAll decides every image now, for a dry run or a plan file.
func (x *importer) decideAll(ctx context.Context, plan *Plan) error {
	if x.imgs == nil {
		return nil
	}
	x.eligible(plan)
	if err := x.remember(ctx, plan); err != nil {
		return err
	}
	if err := x.readAccountFiles(ctx, plan); err != nil {
		return err
	}
	for _, ip := range x.imgs.plans(plan) {
		if !x.decide(ctx, ip) {
			x.imgs.release(ip)
		}
	}
	return nil
}

// sendImages uploads the images of the products written, a chunk at a
// time as they are fetched and decided, then deletes the files the new
// ones replace, and saves what was learned. Its error is fatal.
func (x *importer) sendImages(ctx context.Context, plan *Plan) error {
	w := x.imgs
	if w == nil || x.DryRun {
		return nil
	}
	x.eligible(plan)
	if w.account == nil {
		if err := x.remember(ctx, plan); err != nil {
			return err
		}
		if err := x.readAccountFiles(ctx, plan); err != nil {
			return err
		}
	}
	all := w.plans(plan)
	x.Progress.Writing("uploading "+plural.Count(len(all), "image"), len(all), len(all), "image")
	up := x.uploader(plan)
	var replaced []*ImagePlan
	for chunk := range slices.Chunk(all, x.imageChunk()) {
		var todo []*ImagePlan
		for _, ip := range chunk {
			if ctx.Err() == nil && x.fatal == nil && x.decide(ctx, ip) && x.ready(ctx, ip) {
				todo = append(todo, ip)
				continue
			}
			if !ip.decided || ip.Action == ToUpload {
				ip.set(engine.Skipped, imageWords.Stopped())
			}
			w.release(ip)
			x.Progress.Sent(1, true)
		}
		err := up.Send(ctx, todo)
		for _, ip := range todo {
			w.release(ip)
			if ip.Action == Uploaded && ip.Replaces != "" {
				replaced = append(replaced, ip)
			}
		}
		if err != nil {
			// The chunks after it are settled as not sent.
			x.noteFatal(err)
		}
	}
	if err := x.deleteReplaced(ctx, replaced); err != nil {
		return err
	}
	return x.State.PutFiles(context.WithoutCancel(ctx), state.KeyFiles(x.Scope), w.toSave, nil)
}

// ready makes sure the content of an image to upload is at hand: one
// its server said had not changed is downloaded after all (its file was
// deleted from the account). It reports whether it is; if not, ip failed.
func (x *importer) ready(ctx context.Context, ip *ImagePlan) bool {
	if !ip.img.NotModified {
		return true
	}
	rc, err := x.imgs.fetcher.Open(ctx, ip.img)
	if err != nil {
		ip.set(engine.Failed, imageFailedMessage(err))
		return false
	}
	rc.Close()
	return true
}

// noteFatal keeps the error that stopped the import (a refused token).
func (x *importer) noteFatal(err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.fatal == nil {
		x.fatal = err
	}
}

// uploader sends uploads, one image a request.
func (x *importer) uploader(plan *Plan) *engine.Sender[*ImagePlan, uploadRec] {
	return &engine.Sender[*ImagePlan, uploadRec]{
		State: x.State, Run: x.run, Kind: KindFileUpload, Words: imageWords, Size: 1, Parallel: x.Concurrency,
		Record: func(ip *ImagePlan) (string, uploadRec) {
			k := ip.place()
			return k.Product + "|" + k.Place, uploadRec{Product: k.Product, Place: k.Place, Name: ip.name, Size: ip.Size,
				Hash: ip.hash, ETag: ip.etag, Modified: ip.modified, Before: filesBefore(ip)}
		},
		// The file is the run's to delete, should it be undone.
		Change: func(ip *ImagePlan) *state.Change {
			return &state.Change{Op: state.OpCreate, Resource: state.ResourceFile, Key: ip.src.Key, ParentID: string(ip.pp.ID()),
				After: map[string]string{"name": ip.name, "size": strconv.FormatInt(ip.Size, 10)}}
		},
		Write: func(ctx context.Context, batch []*ImagePlan) (*api.WriteResult, error) {
			ip := batch[0]
			rc, err := x.imgs.fetcher.Open(ctx, ip.img)
			if err != nil {
				return nil, fmt.Errorf("%w: %s", api.ErrNotApplied, imageFailedMessage(err))
			}
			defer rc.Close()
			return x.Client.ProductFiles.Upload(ctx, ip.pp.ID(), ip.name, io.LimitReader(rc, ip.Size))
		},
		Check: x.checkUploads,
		Keep: func(recs []uploadRec, vs []engine.Verdict) state.Settlement {
			var files []state.File
			for i, r := range recs {
				if vs[i].Kind == engine.Took && vs[i].ID != "" {
					files = append(files, state.File{Product: r.Product, Place: r.Place, FileID: string(vs[i].ID), Hash: r.Hash,
						Size: r.Size, Name: r.Name, Ours: true, ETag: r.ETag, Modified: r.Modified})
				}
			}
			return state.Settlement{Files: []state.Files{{Scope: state.KeyFiles(x.Scope), Put: files}}}
		},
		// An image settled lets its content go at once: the fetcher then
		// downloads the next, beside the uploads still in flight.
		Took: func(ip *ImagePlan, id api.ID) {
			ip.FileID = id
			ip.set(Uploaded, ip.Reason)
			x.imgs.release(ip)
			x.Progress.Sent(1, true)
		},
		Settle: func(ip *ImagePlan, s engine.Status, msg string) {
			ip.set(s, msg)
			x.imgs.release(ip)
			x.Progress.Sent(1, false)
		},
	}
}

// filesBefore are the files ip's product holds before ip is uploaded.
func filesBefore(ip *ImagePlan) []string {
	var out []string
	if lp := ip.pp.Live; lp != nil {
		for _, id := range lp.FileIDs {
			out = append(out, string(id))
		}
	}
	for _, o := range ip.pp.Images() {
		if o.FileID != "" && o != ip {
			out = append(out, string(o.FileID))
		}
	}
	return out
}

// checkUploads looks in the account for uploads whose answer was lost:
// a file of their product, not among those it held before, of the same
// name and size (or name, when the account gives no size), is the one
// sent.
func (x *importer) checkUploads(ctx context.Context, open []engine.Open[uploadRec]) ([][]engine.Verdict, error) {
	var pids []api.ID
	for _, o := range open {
		for _, r := range o.Recs {
			pids = append(pids, api.ID(r.Product))
		}
	}
	live, err := fetchProducts(ctx, x.Client, distinct(pids))
	if err != nil {
		return nil, err
	}
	w := &imageWork{account: map[api.ID][]accountFile{}}
	var ids []api.ID
	owner := map[api.ID]api.ID{}
	for _, lp := range live.Products {
		for _, id := range lp.FileIDs {
			ids, owner[id] = append(ids, id), lp.ID
		}
	}
	for part := range slices.Chunk(ids, wire.MaxPageSize) {
		pg, err := x.Client.ProductFiles.Get(ctx, part...)
		if err != nil {
			return nil, fmt.Errorf("looking for uploads that got no answer: %w", err)
		}
		for _, f := range pg.Records {
			if !f.Deleted.Bool() {
				w.account[owner[f.ID]] = append(w.account[owner[f.ID]], accountFileOf(f))
			}
		}
	}
	out := make([][]engine.Verdict, len(open))
	for k, o := range open {
		out[k] = make([]engine.Verdict, len(o.Recs))
		for j, r := range o.Recs {
			pid := api.ID(r.Product)
			w.account[pid] = slices.DeleteFunc(w.account[pid], func(f accountFile) bool { return slices.Contains(r.Before, string(f.id)) })
			out[k][j] = engine.Verdict{Kind: engine.Again}
			if f, ok := w.adopt(pid, r.Name, r.Size); ok {
				out[k][j] = engine.Verdict{Kind: engine.Took, ID: f.id}
			}
		}
	}
	return out, nil
}

// deleteReplaced deletes the files that images uploaded in their place
// replace (files lading uploaded), BatchSize a request.
func (x *importer) deleteReplaced(ctx context.Context, replaced []*ImagePlan) error {
	if len(replaced) == 0 || ctx.Err() != nil || x.fatal != nil {
		for _, ip := range replaced {
			ip.Reason = fmt.Sprintf("uploaded in place of file %s, which is not deleted yet: the import stopped first; delete it in the account", ip.Replaces)
		}
		return nil
	}
	err := x.deleter().Send(ctx, replaced)
	if err != nil {
		x.noteFatal(err)
	}
	return nil
}

// deleter deletes replaced files.
func (x *importer) deleter() *engine.Sender[*ImagePlan, deleteRec] {
	return &engine.Sender[*ImagePlan, deleteRec]{
		State: x.State, Run: x.run, Kind: KindFileDelete, Words: fileWords, Size: x.BatchSize, Parallel: x.Concurrency,
		Record: func(ip *ImagePlan) (string, deleteRec) {
			return string(ip.Replaces), deleteRec{File: string(ip.Replaces), Product: string(ip.pp.ID())}
		},
		Change: func(ip *ImagePlan) *state.Change {
			return &state.Change{Op: state.OpDelete, Resource: state.ResourceFile, Key: ip.src.Key, RecordID: string(ip.Replaces), ParentID: string(ip.pp.ID())}
		},
		Write: func(ctx context.Context, batch []*ImagePlan) (*api.WriteResult, error) {
			ids := make([]api.ID, len(batch))
			for i, ip := range batch {
				ids[i] = ip.Replaces
			}
			return x.Client.ProductFiles.Delete(ctx, ids...)
		},
		Check: x.checkDeletes,
		Took: func(ip *ImagePlan, _ api.ID) {
			ip.Reason = fmt.Sprintf("its content changed: replaces file %s, which lading uploaded before and has deleted", ip.Replaces)
		},
		Settle: func(ip *ImagePlan, s engine.Status, msg string) {
			ip.Action = engine.Failed
			ip.Reason = fmt.Sprintf("uploaded as file %s in place of file %s, which could not be deleted: %s", ip.FileID, ip.Replaces, msg)
			if s == engine.Skipped {
				ip.Action = Uploaded
				ip.Reason = fmt.Sprintf("uploaded in place of file %s, which is not deleted yet: the import stopped first; delete it in the account", ip.Replaces)
			}
		},
	}
}

// checkDeletes looks in the account for deletions whose answer was lost:
// a file marked deleted, or gone, was deleted.
func (x *importer) checkDeletes(ctx context.Context, open []engine.Open[deleteRec]) ([][]engine.Verdict, error) {
	var ids []api.ID
	for _, o := range open {
		for _, r := range o.Recs {
			ids = append(ids, api.ID(r.File))
		}
	}
	live := map[api.ID]bool{}
	for part := range slices.Chunk(ids, wire.MaxPageSize) {
		pg, err := x.Client.ProductFiles.Get(ctx, part...)
		var ae *api.APIError
		if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
			continue // none of them is in the account
		}
		if err != nil {
			return nil, fmt.Errorf("looking for deletions that got no answer: %w", err)
		}
		for _, f := range pg.Records {
			if !f.Deleted.Bool() {
				live[f.ID] = true
			}
		}
	}
	out := make([][]engine.Verdict, len(open))
	for k, o := range open {
		out[k] = make([]engine.Verdict, len(o.Recs))
		for j, r := range o.Recs {
			out[k][j] = engine.Verdict{Kind: engine.Took}
			if live[api.ID(r.File)] {
				out[k][j] = engine.Verdict{Kind: engine.Again}
			}
		}
	}
	return out, nil
}

// imageRequests is how many writes the images decided to upload, and the
// files they replace, take: one an upload, size deletions a request.
func (p *Plan) imageRequests(size int) int {
	uploads, deletes := 0, 0
	for _, pp := range p.Products {
		for _, ip := range pp.Images() {
			if ip.Action == ToUpload {
				uploads++
				if ip.Replaces != "" {
					deletes++
				}
			}
		}
	}
	return uploads + (deletes+size-1)/size
}

// imageSummary counts the images by what became of them, with the size
// and the requests of those uploaded (or to upload), and what the fetcher
// fetched.
func (x *importer) imageSummary(plan *Plan, rep *Report) {
	if x.imgs == nil {
		return
	}
	rep.Images = engine.Counts{}
	deletes := 0
	for _, pp := range plan.Products {
		for _, ip := range pp.Images() {
			rep.Images[ip.Action]++
			switch {
			case ip.Action == ToUpload, ip.Action == Uploaded, ip.Action == engine.Failed && ip.FileID != "":
				rep.ImageBytes += ip.Size
				rep.ImageRequests++
				if ip.Replaces != "" {
					deletes++
				}
			}
		}
	}
	rep.ImageRequests += (deletes + x.BatchSize - 1) / x.BatchSize
	st := x.imgs.fetcher.Stats()
	rep.Fetched = &st
}
