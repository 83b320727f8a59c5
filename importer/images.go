package importer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"lading/api"
	"lading/catalog"
	"lading/engine"
	"lading/images"
	"lading/state"
)

// The statuses of an image's line in the results file, beside Unchanged,
// Skipped and Failed.
const (
	Uploaded engine.Status = "uploaded"
	ToUpload engine.Status = "to upload"
)

// ImagePlan is what an import does with one image of a product: each
// distinct image its rows name (by URL, or path under the images folder)
// is uploaded once as a product file linked to it, unless the account
// holds it already.
type ImagePlan struct {
	// Image is the image as the first row naming it gives it.
	Image  catalog.Image
	Action engine.Status
	Reason string
	// FileID is the product file holding it, once uploaded or found.
	FileID api.ID
	// Size is its content's size in bytes, once fetched.
	Size int64
	// Replaces is the file lading uploaded before at the same place,
	// whose content changed since: it is deleted once the new file is
	// uploaded.
	Replaces api.ID

	src            images.Source
	pp             *ProductPlan
	hash, name     string
	etag, modified string
	img            *images.Image // the fetched image, while it is needed
	decided        bool
	// wanted says the fetcher counts a use of the image for ip, which
	// released gives up (once).
	wanted, released bool
}

func (ip *ImagePlan) set(a engine.Status, reason string) {
	ip.Action, ip.Reason, ip.decided = a, reason, true
}

// place is where the state remembers the image's file: its product and
// its source.
func (ip *ImagePlan) place() state.FileKey {
	return state.FileKey{Product: string(ip.pp.ID()), Place: ip.src.Key}
}

// record is what the state remembers of the image once fileID holds it.
func (ip *ImagePlan) record(fileID api.ID, ours bool) state.File {
	k := ip.place()
	return state.File{Product: k.Product, Place: k.Place, FileID: string(fileID), Hash: ip.hash, Size: ip.Size,
		Name: ip.name, Ours: ours, ETag: ip.etag, Modified: ip.modified}
}

// imageWork is an import's images: the plans of each product's, what the
// state remembers of them, the files of the account's products where the
// state does not know them, and the fetcher getting them.
type imageWork struct {
	fetcher   *images.Fetcher
	byProduct map[*catalog.Product][]*ImagePlan
	// records are what the state remembers, by product id and place.
	records map[state.FileKey]state.File
	// account are the files of products the state does not account
	// for, read from the account (the state was lost, or is not read in
	// a dry run): an image of the same name and size is there already.
	account map[api.ID][]accountFile
	// toSave are records to remember once the images are settled: files
	// found in the account, and URLs whose ETag changed.
	toSave []state.File
}

// accountFile is a product file as the account lists it.
type accountFile struct {
	id   api.ID
	name string
	size int64
}

// plans are every image plan, product by product.
func (w *imageWork) plans(plan *Plan) []*ImagePlan {
	var out []*ImagePlan
	for _, pp := range plan.Products {
		out = append(out, pp.Images()...)
	}
	return out
}

// startImages gathers the images the products name and starts fetching
// them, asking the servers of URLs an earlier import read whether they
// changed since; nil when the import has none, or leaves them out.
func (x *importer) startImages(ctx context.Context, products []*catalog.Product) (*imageWork, error) {
	if x.NoImages || !anyImages(products) {
		return nil, nil
	}
	w := &imageWork{byProduct: map[*catalog.Product][]*ImagePlan{}}
	var sources []string
	for _, p := range products {
		if len(p.Images()) == 0 {
			continue
		}
		w.byProduct[p] = productImages(p)
		for _, ip := range w.byProduct[p] {
			if !ip.decided {
				sources = append(sources, ip.src.Key)
			}
		}
	}
	known, err := x.known(ctx, sources)
	if err != nil {
		return nil, err
	}
	var wants []images.Want
	for _, p := range products {
		for _, ip := range w.byProduct[p] {
			if !ip.decided {
				wants = append(wants, images.Want{Source: ip.src, Uses: 1, Known: known[ip.src.Key]})
				ip.wanted = true
			}
		}
	}
	o := x.Images
	if o.Dir == "" {
		o.Dir = filepath.Dir(x.Input)
	}
	if o.Concurrency == 0 {
		o.Concurrency = x.Concurrency
	}
	if o.Ahead == 0 {
		// As the uploads of a chunk of images release them, the images
		// after it are downloaded: the next chunk is at hand when its
		// turn comes.
		o.Ahead = 2 * x.imageChunk()
	}
	f, err := images.New(ctx, o, wants)
	if err != nil {
		return nil, err
	}
	w.fetcher = f
	return w, nil
}

func anyImages(products []*catalog.Product) bool {
	for _, p := range products {
		if len(p.Images()) > 0 {
			return true
		}
	}
	return false
}

// productImages are the plans of p's images: one for each distinct
// source, at the first row naming it. A source that names no image that
// can be read fails at once.
func productImages(p *catalog.Product) []*ImagePlan {
	var out []*ImagePlan
	seen := map[string]bool{}
	for _, im := range p.Images() {
		src, err := images.Parse(im.Source)
		key := src.Key
		if err != nil || im.Err != "" {
			key = "\x00" + im.Source
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		ip := &ImagePlan{Image: im, src: src}
		switch {
		case im.Err != "":
			ip.set(engine.Failed, fmt.Sprintf("not uploaded: column %q, value %q: %s; correct it in the file, then run the same command again", im.Column, im.Source, im.Err))
		case err != nil:
			ip.set(engine.Failed, imageFailedMessage(err))
		case !p.Valid():
			ip.set(engine.Skipped, "not uploaded: the product's rows are invalid, and its images wait for it")
		}
		out = append(out, ip)
	}
	return out
}

// known is what the state remembers of the content of those sources
// (URLs an earlier import read, with an ETag or Last-Modified date to ask
// their servers by), when every file remembered at one agrees.
func (x *importer) known(ctx context.Context, sources []string) (map[string]*images.Known, error) {
	if x.State == nil {
		return nil, nil
	}
	files, err := x.State.FilesAt(ctx, state.KeyFiles(x.Scope), dedupe(sources))
	if err != nil {
		return nil, err
	}
	out := map[string]*images.Known{}
	for _, f := range files {
		k := &images.Known{Hash: f.Hash, Size: f.Size, ETag: f.ETag, Modified: f.Modified}
		if have, seen := out[f.Place]; !seen {
			out[f.Place] = k
		} else if have != nil && *have != *k {
			out[f.Place] = nil
		}
	}
	for place, k := range out {
		if k != nil && k.ETag == "" && k.Modified == "" {
			delete(out, place)
		}
	}
	return out, nil
}

// remember loads what the state remembers of the images of the plan's
// products that are in the account.
func (x *importer) remember(ctx context.Context, plan *Plan) error {
	w := x.imgs
	w.records = map[state.FileKey]state.File{}
	if x.State == nil {
		return nil
	}
	var pids []string
	for _, pp := range plan.Products {
		if id := pp.ID(); id != "" && len(pp.Images()) > 0 {
			pids = append(pids, string(id))
		}
	}
	files, err := x.State.Files(ctx, state.KeyFiles(x.Scope), dedupe(pids))
	if err != nil {
		return err
	}
	for _, f := range files {
		w.records[f.Key()] = f
	}
	return nil
}

// attach gives each product plan its images.
func (w *imageWork) attach(plan *Plan) {
	if w == nil {
		return
	}
	for _, pp := range plan.Products {
		pp.setImages(w.byProduct[pp.P])
		for _, ip := range pp.Images() {
			ip.pp = pp
		}
	}
}

// close stops the fetches and deletes what they downloaded.
func (w *imageWork) close() {
	if w != nil && w.fetcher != nil {
		w.fetcher.Close()
	}
}

// imageFailedMessage is what the line of an image that could not be had
// says: which image, what happened, and what to do.
func imageFailedMessage(err error) string {
	var ie *images.Error
	if !errors.As(err, &ie) {
		return fmt.Sprintf("not uploaded: %v; run the same command again", err)
	}
	advice := ie.Advice + ", then run the same command again"
	if ie.Temporary {
		advice = "run the same command again later"
	}
	return fmt.Sprintf("not uploaded: image %s: %s; %s", ie.Source, ie.Reason, advice)
}
