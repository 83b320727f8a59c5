package importer_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api/wire"
	"lading/engine"
	"lading/images/imagestest"
	"lading/importer"
	"lading/sandbox"
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
		for _, f := range pg.ProductFiles {
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
