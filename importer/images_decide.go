package importer

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/state"
)

// eligible settles, as skipped, the images of products that get none
// this run, saying why: a product not written (failed, skipped, or not
// created), and in mode create-only a product that was in the account
// already. The others stay to be decided.
func (x *importer) eligible(plan *Plan) {
	for _, pp := range plan.Products {
		why := ""
		switch {
		case len(pp.Images()) == 0 || !pp.P.Valid():
		case pp.Action == engine.Skipped, pp.Action == engine.Failed && pp.ID() == "":
			why = "not uploaded: the product was not written, and its images wait for it"
		case x.Mode == ModeCreateOnly && pp.Live != nil:
			why = "not uploaded: the product was in the account already, and this import only creates what is new (mode create-only)"
		case pp.ID() == "" && !x.DryRun:
			why = "not uploaded: the product could not be created, and its images wait for it"
		}
		if why == "" {
			continue
		}
		for _, ip := range pp.Images() {
			if !ip.decided || ip.Action == ToUpload {
				ip.set(engine.Skipped, why)
				x.imgs.release(ip)
			}
		}
	}
}

// readAccountFiles reads the files of the products whose images the
// state does not account for and that hold files it does not know: an
// image of the same name and size there is not uploaded again. Reads take
// wire.MaxPageSize files each.
func (x *importer) readAccountFiles(ctx context.Context, plan *Plan) error {
	w := x.imgs
	var ids []api.ID
	owner := map[api.ID]api.ID{}
	for _, pp := range plan.Products {
		lp := pp.Live
		if lp == nil || !lp.FilesKnown || len(lp.FileIDs) == 0 || !w.unknownImages(pp) {
			continue
		}
		known := map[api.ID]bool{}
		for _, ip := range pp.Images() {
			if rec, ok := w.records[state.FileKey{Product: string(lp.ID), Place: ip.src.Key}]; ok {
				known[api.ID(rec.FileID)] = true
			}
		}
		for _, id := range lp.FileIDs {
			if !known[id] {
				ids = append(ids, id)
				owner[id] = lp.ID
			}
		}
	}
	w.account = map[api.ID][]accountFile{}
	for part := range slices.Chunk(ids, wire.MaxPageSize) {
		pg, err := x.Client.ProductFiles.Get(ctx, part...)
		if err != nil {
			return fmt.Errorf("reading the files of the account's products, to upload none twice: %w", err)
		}
		for _, f := range pg.Records {
			if f.Deleted.Bool() {
				continue
			}
			pid := owner[f.ID]
			w.account[pid] = append(w.account[pid], accountFileOf(f))
		}
	}
	return nil
}

// unknownImages reports whether some image of pp is not remembered at its
// place, or remembered in a file the product no longer holds.
func (w *imageWork) unknownImages(pp *ProductPlan) bool {
	for _, ip := range pp.Images() {
		if ip.decided {
			continue
		}
		rec, ok := w.records[state.FileKey{Product: string(pp.ID()), Place: ip.src.Key}]
		if !ok || !holds(pp.Live, api.ID(rec.FileID)) {
			return true
		}
	}
	return false
}

// accountFileOf is a listed file's name (file_name, else orig_file_name)
// and size in bytes (0 when the account gives none). [A.3]
func accountFileOf(f *api.ProductFile) accountFile {
	name := string(f.FileName)
	if name == "" {
		name = string(f.OrigFileName)
	}
	size, _ := strconv.ParseInt(string(f.Size), 10, 64)
	return accountFile{id: f.ID, name: name, size: size}
}

// holds reports whether the live product holds file id, as far as the
// snapshot tells (a product created by this run, or one whose links were
// not read, is taken to).
func holds(lp *LiveProduct, id api.ID) bool {
	return lp == nil || !lp.FilesKnown || slices.Contains(lp.FileIDs, id)
}

// decide fetches ip's image and decides what becomes of it: unchanged
// when the product holds a file of the same content (remembered at its
// place, or found in the account by name and size), else to upload, in
// place of the file lading uploaded before at its place when there is
// one. It reports whether the image is to be uploaded.
func (x *importer) decide(ctx context.Context, ip *ImagePlan) bool {
	if ip.decided {
		return ip.Action == ToUpload && !x.DryRun
	}
	w := x.imgs
	img, err := w.fetcher.Get(ctx, ip.src)
	if err != nil {
		if ctx.Err() != nil {
			ip.set(engine.Skipped, words.Interrupted())
		} else {
			ip.set(engine.Failed, imageFailedMessage(err))
		}
		return false
	}
	ip.img, ip.Size, ip.hash, ip.name, ip.etag, ip.modified = img, img.Size, img.Hash, img.Name, img.ETag, img.Modified
	pid := ip.pp.ID()
	if pid != "" {
		rec, ok := w.records[ip.place()]
		there := ok && holds(ip.pp.Live, api.ID(rec.FileID))
		switch {
		case there && rec.Hash == img.Hash:
			ip.name = rec.Name
			ip.unchanged(api.ID(rec.FileID), "")
			if rec.ETag != img.ETag || rec.Modified != img.Modified {
				w.toSave = append(w.toSave, ip.record(ip.FileID, rec.Ours))
			}
			return false
		case there && rec.Ours:
			ip.Replaces = api.ID(rec.FileID)
		case there:
			ip.Reason = fmt.Sprintf("its content changed: uploaded beside file %s, which lading did not upload and leaves as it is", rec.FileID)
		}
		if !there {
			if f, ok := w.adopt(pid, img.Name, img.Size); ok {
				ip.unchanged(f.id, fmt.Sprintf("the product holds a file of the same name and size (%s, %d bytes): not uploaded again", f.name, img.Size))
				w.toSave = append(w.toSave, ip.record(f.id, false))
				return false
			}
		}
	}
	ip.set(ToUpload, ip.Reason)
	if ip.Replaces != "" {
		ip.Reason = fmt.Sprintf("its content changed: replaces file %s, which lading uploaded before", ip.Replaces)
	}
	return !x.DryRun
}

// release lets the fetcher drop ip's image once no other product needs
// it; it may be called more than once, and for an image never fetched.
func (w *imageWork) release(ip *ImagePlan) {
	if ip.released || !ip.wanted {
		return
	}
	ip.released, ip.img = true, nil
	w.fetcher.Release(ip.src)
}

// unchanged settles an image the product holds in file id, and lets its
// content go.
func (ip *ImagePlan) unchanged(id api.ID, reason string) {
	ip.FileID = id
	ip.set(engine.Unchanged, reason)
}

// adopt takes, among the files read from the account of product pid, one
// of that name and size (or of that name when the account gives no
// size); each file is taken once.
func (w *imageWork) adopt(pid api.ID, name string, size int64) (accountFile, bool) {
	files := w.account[pid]
	for i, f := range files {
		if f.name == name && (f.size == size || f.size == 0) {
			w.account[pid] = slices.Delete(files, i, i+1)
			return f, true
		}
	}
	return accountFile{}, false
}
