package importer_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lading/api/wire"
	"lading/app"
	"lading/engine"
	"lading/images/imagestest"
	"lading/importer"
	"lading/sandbox"
	"lading/state"
)

// withImages makes an import take the images in: URLs through srv's
// transport (nothing reaches the network), paths under dir ("" for the
// input's folder).
func withImages(srv *imagestest.Server, dir string) func(*importer.Options) {
	return func(o *importer.Options) {
		o.NoImages = false
		o.Images.Dir = dir
		if srv != nil {
			o.Images.Transport = srv.Transport()
		}
	}
}

// sandboxFile is a product file as the sandbox lists it.
type sandboxFile struct {
	ID, Product, Name string
	Size              string
}

// files lists the product files of the sandbox.
func (e *env) files() []sandboxFile {
	e.t.Helper()
	var out []sandboxFile
	for _, pg := range pages(e.t, e.c.ProductFiles.ListPages(context.Background(), nil)) {
		for _, f := range pg.Records {
			out = append(out, sandboxFile{ID: string(f.ID), Product: string(f.Links.First(wire.Products)), Name: string(f.FileName), Size: string(f.Size)})
		}
	}
	return out
}

// fileWrites counts the uploads and deletions of product files (each a
// write request to ProductFiles) between two counter readings.
func fileWrites(before, after map[string]int64) int64 {
	p := wire.WritePath(wire.ProductFiles)
	return after[p] - before[p]
}

// imageColumns say where a platform's export names images, as the test
// reads them itself: columns holding one image a cell, and columns
// holding a list separated by ",".
type imageColumns struct {
	single, lists []string
}

// cells are the images row (a record of a file whose header is h) names.
func (c imageColumns) cells(h map[string]int, row []string) []string {
	var out []string
	get := func(col string) string {
		if i, ok := h[col]; ok && i < len(row) {
			return strings.TrimSpace(row[i])
		}
		return ""
	}
	for _, col := range c.single {
		if v := get(col); v != "" {
			out = append(out, v)
		}
	}
	for _, col := range c.lists {
		for _, v := range strings.Split(get(col), ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// exportRecords reads a CSV export with the line each record starts on,
// as the results file numbers rows.
func exportRecords(t *testing.T, path string, comma rune) (header map[string]int, lines []int, recs [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.FieldsPerRecord = comma, -1
	header = map[string]int{}
	for n := 0; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			return header, lines, recs
		}
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			for i, c := range rec {
				header[strings.TrimPrefix(c, "\ufeff")] = i
			}
			continue
		}
		line, _ := r.FieldPos(0)
		lines, recs = append(lines, line), append(recs, rec)
	}
}

// wantFiles counts the product files an import of files should make,
// from the files themselves: the distinct images the rows of each
// product name (the cells of cols), for the products the import wrote
// (the results file says which product each row is of, and whether it
// was created). It returns the count and the distinct sources.
func wantFiles(t *testing.T, results string, cols imageColumns, comma rune, files ...string) (int, map[string]bool) {
	t.Helper()
	type rowKey struct {
		file string
		row  string
	}
	product := map[rowKey]string{}
	for _, r := range readResults(t, results) {
		if len(r) > 8 && r[8] != "" {
			continue // an image's line
		}
		if r[4] == string(engine.Created) {
			product[rowKey{filepath.Base(r[0]), r[1]}] = r[2]
		}
	}
	pairs, sources := map[string]bool{}, map[string]bool{}
	for _, path := range files {
		h, lines, recs := exportRecords(t, path, comma)
		for i, rec := range recs {
			key, ok := product[rowKey{filepath.Base(path), fmt.Sprint(lines[i])}]
			if !ok {
				continue
			}
			for _, src := range cols.cells(h, rec) {
				src = strings.TrimPrefix(src, "/") // a path is under the images folder
				pairs[key+"\x00"+src], sources[src] = true, true
			}
		}
	}
	return len(pairs), sources
}

// TestImportPlatformImages imports the real exports of Shopify,
// WooCommerce, Magento (its images in a local media folder) and
// PrestaShop (two files) with their images, served by a local server
// under the URLs the exports name: the sandbox holds exactly the files
// the exports name for the products written, each uploaded once and
// each URL downloaded once; a second import uploads nothing, its server
// answering that no image changed.
func TestImportPlatformImages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		template string
		files    []string // the input first; a joined file is copied as combinations.csv
		comma    rune
		cols     imageColumns
		edit     func(string) string
		local    bool // the images are paths under a media folder
		// want is the count of files, checked against the count the test
		// makes from the files, so that a change in either is seen.
		want int
	}{
		// Image Src (one a row, image-only rows included) and Variant Image.
		{template: "shopify", files: []string{"shopify-product-template.csv"}, comma: ',', edit: retypedBarcodes,
			cols: imageColumns{single: []string{"Image Src", "Variant Image"}}, want: 11},
		// Images: a list on the product's row and on its variations'.
		{template: "woocommerce", files: []string{"woocommerce-sample-products.csv"}, comma: ',',
			cols: imageColumns{lists: []string{"Images"}}, want: 21},
		// Paths under the store's media folder, on the configurable's row
		// and its variants' rows; base, small and thumbnail often the same.
		{template: "magento2", files: []string{"magento2-sample-data-hoodies.csv"}, comma: ',', local: true,
			cols: imageColumns{single: []string{"base_image", "small_image", "thumbnail_image"}, lists: []string{"additional_images"}}, want: 10},
		// Image URLs on the products' rows and on their combinations' (one
		// URL for all of these); the MacBook Air, whose combinations give
		// a reference twice, is not written, nor its images.
		{template: "prestashop", files: []string{"prestashop-products_import.csv", "prestashop-combinations_import.csv"}, comma: ';',
			cols: imageColumns{lists: []string{"Image URLs (x,y,z...)"}}, want: 10},
	} {
		t.Run(tc.template, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, sandbox.Options{})
			in := e.copyTo(catalogFile(t, tc.files[0]), tc.edit)
			inputs := []string{in}
			if len(tc.files) > 1 {
				b, _ := os.ReadFile(catalogFile(t, tc.files[1]))
				joined := filepath.Join(e.dir, "combinations.csv")
				if err := os.WriteFile(joined, b, 0o644); err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, joined)
			}
			srv, media := imagestest.New(t), ""
			// Every image the export names, URL or path, is served a
			// content of its own.
			all := imageColumns{}.cells(nil, nil)
			for _, path := range inputs {
				h, _, recs := exportRecords(t, path, tc.comma)
				for _, rec := range recs {
					all = append(all, tc.cols.cells(h, rec)...)
				}
			}
			if tc.local {
				media = filepath.Join(e.dir, "media")
			}
			for i, src := range all {
				if tc.local {
					p := filepath.Join(media, filepath.FromSlash(strings.TrimPrefix(src, "/")))
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, imagestest.JPEG(i, 3000+i), 0o644)
					continue
				}
				srv.Put(src, imagestest.JPEG(i, 3000+i))
			}
			ctx := context.Background()
			before := e.srv.Counters().Requests
			rep, err := e.importFile(ctx, tc.template, in, withImages(srv, media))
			if err != nil {
				t.Fatal(err)
			}
			want, sources := wantFiles(t, rep.Results, tc.cols, tc.comma, inputs...)
			if want != tc.want {
				t.Errorf("the files name %d images of the products written, the test expects %d", want, tc.want)
			}
			files := e.files()
			if len(files) != want || rep.Images[importer.Uploaded] != want || rep.Images.Failed() != 0 {
				t.Errorf("the sandbox holds %d files, the report says %v; want %d uploaded, none failed", len(files), rep.Images, want)
			}
			if n := fileWrites(before, e.srv.Counters().Requests); n != int64(want) {
				t.Errorf("%d uploads, want one for each of the %d images", n, want)
			}
			if !tc.local {
				for src := range sources {
					if n := srv.Hits(src); n != 1 {
						t.Errorf("%s downloaded %d times, want once", src, n)
					}
				}
				if srv.Total() != len(sources) {
					t.Errorf("%d downloads for %d distinct URLs", srv.Total(), len(sources))
				}
			}

			// Again: nothing uploaded, every image unchanged, and each
			// URL only asked whether it changed.
			before, asked := e.srv.Counters().Requests, srv.Total()
			rep2, err := e.importFile(ctx, tc.template, in, withImages(srv, media))
			if err != nil {
				t.Fatal(err)
			}
			if w := writes(before, e.srv.Counters().Requests) + fileWrites(before, e.srv.Counters().Requests); w != 0 {
				t.Errorf("the second import sent %d writes, want none", w)
			}
			if rep2.Images[engine.Unchanged] != want || rep2.Images[importer.Uploaded] != 0 || rep2.Images.Failed() != 0 ||
				rep2.Images[engine.Skipped] != rep.Images[engine.Skipped] {
				t.Errorf("second import images %v, want %d unchanged and those of products not written skipped again (%d)",
					rep2.Images, want, rep.Images[engine.Skipped])
			}
			if !tc.local && (srv.NotModified() != len(sources) || srv.Total()-asked != len(sources)) {
				t.Errorf("second import: %d requests, %d answered not modified; want one for each of the %d URLs, all not modified",
					srv.Total()-asked, srv.NotModified(), len(sources))
			}
		})
	}
}

// imageCatalog writes a catalog in the generic layout whose products
// name the images given (separated by "|"), product p<i> with SKU S<i>.
func (e *env) imageCatalog(name string, images ...string) string {
	e.t.Helper()
	var b strings.Builder
	b.WriteString("product_key,product_name,sku,images\n")
	for i, im := range images {
		fmt.Fprintf(&b, "p%d,Product %d,S%d,%s\n", i+1, i+1, i+1, im)
	}
	p := filepath.Join(e.dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// imageLines are the results file's image lines, by image.
func imageLines(t *testing.T, results string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, r := range readResults(t, results) {
		if len(r) > 8 && r[8] != "" {
			out[r[8]] = r
		}
	}
	return out
}

// TestImageFailures: an image that cannot be had (not found, no answer
// in time, too large, not an image, a redirect loop, an address of
// another scheme) fails only its own line, which names it and says why,
// on the row that names it; its product and the other images are
// written. Through the command line the import ends with exit 3.
func TestImageFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	srv := imagestest.New(t)
	const host = "https://img.example.com/"
	for i := range 6 {
		srv.Put(fmt.Sprintf("%sok%d.jpg", host, i+1), imagestest.JPEG(i, 2000))
	}
	srv.Handle(host+"slow.jpg", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv.Put(host+"big.png", imagestest.PNG(1, 20000))
	srv.Put(host+"page.jpg", []byte("<html><body>Sorry, this image moved.</body></html>"))
	srv.Handle(host+"loop.jpg", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop.jpg", http.StatusFound) })
	bad := []struct{ src, why string }{
		{host + "missing.jpg", "not found (HTTP 404 Not Found)"},
		{host + "slow.jpg", "no complete answer within 300ms"},
		{host + "big.png", "9.8 KiB, the most an image may weigh"},
		{host + "page.jpg", "its content is text/html; charset=utf-8, not an image or a PDF"},
		{host + "loop.jpg", "redirected more than 5 times"},
		{"ftp://img.example.com/old.jpg", "ftp: addresses are not read"},
	}
	var cells []string
	for i, b := range bad {
		cells = append(cells, fmt.Sprintf("%sok%d.jpg|%s", host, i+1, b.src))
	}
	in := e.imageCatalog("catalog.csv", cells...)
	rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
		withImages(srv, "")(o)
		o.Images.Timeout, o.Images.MaxSize = 300*time.Millisecond, 10000
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Products[engine.Created] != len(bad) || rep.Failed() != 0 || rep.Images[importer.Uploaded] != len(bad) || rep.Images[engine.Failed] != len(bad) {
		t.Errorf("products %v, rows %v, images %v: want every product written, its good image uploaded and its bad one failed",
			rep.Products, rep.Rows, rep.Images)
	}
	lines := imageLines(t, rep.Results)
	for i, b := range bad {
		l := lines[b.src]
		if l == nil || l[1] != fmt.Sprint(i+2) || l[4] != string(engine.Failed) || !strings.Contains(l[7], b.src) || !strings.Contains(l[7], b.why) || l[5] == "" {
			t.Errorf("the line of %s: %q; want failed on row %d, naming it and saying %q, with its product's id", b.src, l, i+2, b.why)
		}
		if ok := lines[fmt.Sprintf("%sok%d.jpg", host, i+1)]; ok == nil || ok[4] != string(importer.Uploaded) || ok[9] == "" {
			t.Errorf("the good image beside it: %q", ok)
		}
	}
	if n := len(e.files()); n != len(bad) {
		t.Errorf("the sandbox holds %d files, want the %d good images", n, len(bad))
	}

	// Through the command line: exit 3, saying how many images failed.
	in2 := e.imageCatalog("again.csv", host+"missing.jpg")
	var out strings.Builder
	a := app.New(app.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }, ImageTransport: srv.Transport()})
	err = a.RunContext(context.Background(), []string{"lading", "--base-url", e.url + "/api2", "--token", "tok", "--rate", "500",
		"import", "--state", filepath.Join(e.dir, "state.db"), "--template", "generic", in2})
	var partial *app.PartialError
	if !errors.As(err, &partial) || !strings.Contains(err.Error(), "1 of 1 image failed") {
		t.Errorf("the command line ended with %v, want exit 3 saying 1 of 1 image failed\n%s", err, out.String())
	}
}

// TestImageReplaced: an image whose content changed at its URL replaces
// exactly one file: the new one is uploaded, the one lading uploaded
// before deleted. With the state lost, the account's files are read and
// those of the same name and size are not uploaded again; a file lading
// did not upload (as far as it knows) is never deleted.
func TestImageReplaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	srv := imagestest.New(t)
	const a, b = "https://img.example.com/a.jpg", "https://img.example.com/shirts/b.jpg"
	srv.Put(a, imagestest.JPEG(1, 4000))
	srv.Put(b, imagestest.JPEG(2, 5000))
	in := e.imageCatalog("catalog.csv", a+"|"+b, a)
	ctx := context.Background()
	if _, err := e.importFile(ctx, "generic", in, withImages(srv, "")); err != nil {
		t.Fatal(err)
	}
	first := e.files()
	if len(first) != 3 || srv.Hits(a) != 1 {
		t.Fatalf("%d files after the first import (want 3: a shared by two products), a downloaded %d times", len(first), srv.Hits(a))
	}
	old := ""
	for _, f := range first {
		if f.Name == "b.jpg" {
			old = f.ID
		}
	}

	srv.Put(b, imagestest.JPEG(3, 5100))
	before := e.srv.Counters().Requests
	rep, err := e.importFile(ctx, "generic", in, withImages(srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	if n := fileWrites(before, e.srv.Counters().Requests); n != 2 || rep.Images[importer.Uploaded] != 1 || rep.Images[engine.Unchanged] != 2 {
		t.Errorf("%d file writes, images %v; want one upload and one deletion, the other two unchanged", n, rep.Images)
	}
	now := e.files()
	line := imageLines(t, rep.Results)[b]
	if len(now) != 3 || slices.ContainsFunc(now, func(f sandboxFile) bool { return f.ID == old }) ||
		line == nil || line[9] == old || !strings.Contains(line[7], "replaces file "+old) || !strings.Contains(line[7], "has deleted") {
		t.Errorf("after the change: files %v, b's line %q; want 3 files, b's old file %s replaced and deleted", now, line, old)
	}

	// The state is lost: the account's files are read, nothing uploaded.
	e.state = e.otherState("lost.db")
	before = e.srv.Counters().Requests
	rep, err = e.importFile(ctx, "generic", in, withImages(srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	reads := e.srv.Counters().Requests[wire.DetailPath(wire.ProductFiles)] - before[wire.DetailPath(wire.ProductFiles)]
	if n := fileWrites(before, e.srv.Counters().Requests); n != 0 || rep.Images[engine.Unchanged] != 3 || reads != 1 {
		t.Errorf("without the state: %d file writes, %d reads of files, images %v; want none written, one read, 3 unchanged", n, reads, rep.Images)
	}
	// b changes again: lading no longer knows it uploaded the file it
	// found, so it uploads the new one beside it and deletes nothing.
	srv.Put(b, imagestest.JPEG(4, 5200))
	before = e.srv.Counters().Requests
	rep, err = e.importFile(ctx, "generic", in, withImages(srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	line = imageLines(t, rep.Results)[b]
	if n := fileWrites(before, e.srv.Counters().Requests); n != 1 || len(e.files()) != 4 || line == nil || !strings.Contains(line[7], "lading did not upload and leaves as it is") {
		t.Errorf("%d file writes, %d files, b's line %q; want one upload beside the file found, nothing deleted", n, len(e.files()), line)
	}
}

// TestImageDryRunAndPlan: a dry run fetches the images and counts those
// to upload, their size and the requests they cost, writing nothing; the
// plan lists them. Once they are in the account a dry run (which reads
// no state) finds them there by name and size.
func TestImageDryRunAndPlan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	srv := imagestest.New(t)
	srv.Put("https://img.example.com/a.jpg", imagestest.JPEG(1, 3000))
	srv.Put("https://img.example.com/b.png", imagestest.PNG(2, 1000))
	in := e.imageCatalog("catalog.csv", "https://img.example.com/a.jpg|https://img.example.com/b.png", "https://img.example.com/a.jpg")
	plan := filepath.Join(e.dir, "plan.json")
	dry := func() *importer.Report {
		t.Helper()
		before := e.srv.Counters().Requests
		rep, err := e.importFile(context.Background(), "generic", in, func(o *importer.Options) {
			withImages(srv, "")(o)
			o.DryRun, o.State, o.PlanFile = true, nil, plan
		})
		if err != nil {
			t.Fatal(err)
		}
		if w := writes(before, e.srv.Counters().Requests) + fileWrites(before, e.srv.Counters().Requests); w != 0 {
			t.Errorf("a dry run sent %d writes", w)
		}
		return rep
	}
	rep := dry()
	if rep.Images[importer.ToUpload] != 3 || rep.ImageBytes != 7000 || rep.ImageRequests != 3 || rep.RequestsPlanned != 4 {
		t.Errorf("dry run: images %v, %d bytes, %d image requests of %d; want 3 to upload, 7000 bytes, 3 requests of 4 (one product create)",
			rep.Images, rep.ImageBytes, rep.ImageRequests, rep.RequestsPlanned)
	}
	b, _ := os.ReadFile(plan)
	var p struct {
		Products []struct {
			Key    string
			Images []struct {
				Source, Row, Action string
				Size                int64
			}
		}
	}
	if err := json.Unmarshal(b, &p); err != nil || len(p.Products) != 2 || len(p.Products[0].Images) != 2 ||
		p.Products[0].Images[1].Source != "https://img.example.com/b.png" || p.Products[0].Images[1].Action != "to upload" ||
		p.Products[0].Images[1].Size != 1000 || !strings.HasSuffix(p.Products[0].Images[1].Row, "catalog.csv row 2") {
		t.Errorf("plan: %v\n%s", err, b)
	}
	if _, err := e.importFile(context.Background(), "generic", in, withImages(srv, "")); err != nil {
		t.Fatal(err)
	}
	if rep := dry(); rep.Images[engine.Unchanged] != 3 || rep.ImageRequests != 0 {
		t.Errorf("dry run after the import: images %v, %d requests; want 3 unchanged, none", rep.Images, rep.ImageRequests)
	}
}

// otherState opens another state file in the env's folder, as a new
// machine or a lost disk gives an import.
func (e *env) otherState(name string) *state.DB {
	e.t.Helper()
	st, err := state.Open(filepath.Join(e.dir, name))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { st.Close() })
	return st
}

// TestImageUploadsWithoutAnswers: uploads whose answer is lost (the
// sandbox applies them, then drops the connection) are looked for in the
// account before they are sent again: every image ends in exactly one
// file, and the next import uploads nothing.
func TestImageUploadsWithoutAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{DropRate: 0.4, Seed: 7})
	srv := imagestest.New(t).ServeAny()
	var cells []string
	for i := range 12 {
		cells = append(cells, fmt.Sprintf("https://img.example.com/%d-a.jpg|https://img.example.com/%d-b.jpg", i, i))
	}
	in := e.imageCatalog("catalog.csv", cells...)
	rep, err := e.importFile(context.Background(), "generic", in, withImages(srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	c := e.srv.Counters()
	if c.Faults["drop"] == 0 {
		t.Fatal("the sandbox dropped no answer: the test shows nothing")
	}
	if n := c.Requests[wire.WritePath(wire.ProductFiles)]; n != 24 {
		t.Errorf("%d uploads sent for 24 images: one whose answer was lost was sent again", n)
	}
	seen := map[string]int{}
	for _, f := range e.files() {
		seen[f.Product+"/"+f.Name]++
	}
	if len(seen) != 24 || rep.Images[importer.Uploaded] != 24 {
		t.Errorf("%d distinct files, images %v; want the 24 images uploaded", len(seen), rep.Images)
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("%s is in the account %d times", k, n)
		}
	}
	rep, err = e.importFile(context.Background(), "generic", in, withImages(srv, ""))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Images[engine.Unchanged] != 24 {
		t.Errorf("the next import: images %v, want 24 unchanged", rep.Images)
	}
}

// TestImagePlanAltAndPosition: the plan shows an image's alt text and
// position, and the variant whose row names it, where the layout gives
// them (Shopify's), though the service's files take neither.
func TestImagePlanAltAndPosition(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandbox.Options{})
	in := e.copyTo(catalogFile(t, "shopify-product-template.csv"), retypedBarcodes)
	plan := filepath.Join(e.dir, "plan.json")
	_, err := e.importFile(context.Background(), "shopify", in, func(o *importer.Options) {
		withImages(imagestest.New(t).ServeAny(), "")(o)
		o.DryRun, o.State, o.PlanFile = true, nil, plan
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(plan)
	var p struct {
		Products []struct {
			Key    string
			Images []struct {
				Source, Variant, Alt, Action string
				Position                     int
			}
		}
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	var pants []string
	for _, pr := range p.Products {
		if pr.Key == "example-pants" {
			for _, im := range pr.Images {
				pants = append(pants, fmt.Sprintf("%s|%s|%d|%s|%s", path.Base(strings.TrimSuffix(im.Source, "?width=1500")), im.Alt, im.Position, im.Variant, im.Action))
			}
		}
	}
	want := []string{
		"urban-vintage-denimn-on-hangers.jpg|A rack of jeans|1||to upload",
		"fashion-model-walks-down-city-street.jpg||0|PNT_DEN_285|to upload",
		"woman-puts-hand-in-pocket.jpg||0|PNT_DEN_305|to upload",
		"female-fashion-model-poses-in-city-street.jpg||0|PNT_DEN_405|to upload",
	}
	if !slices.Equal(pants, want) {
		t.Errorf("the jeans' images in the plan:\n got %q\nwant %q", pants, want)
	}
}
