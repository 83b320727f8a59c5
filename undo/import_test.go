package undo_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/images/imagestest"
	"lading/importer"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/source/sourcetest"
	"lading/templates"
	"lading/undo"
)

// catalogRows is a generated catalog in the generic layout, with an
// images column: header and rows.
func catalogRows(t testing.TB, products, variants int) ([]string, [][]string) {
	t.Helper()
	var b bytes.Buffer
	if err := sourcetest.GenerateCatalogCSV(&b, products, variants); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := append(recs[0], "images")
	for i := range recs[1:] {
		recs[i+1] = append(recs[i+1], "")
	}
	return header, recs[1:]
}

// writeCatalog writes a generic catalog into the env's folder.
func (e *env) writeCatalog(name string, header []string, rows [][]string) string {
	e.T.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.WriteAll(rows)
	path := filepath.Join(e.Dir, name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		e.T.Fatal(err)
	}
	return path
}

// importCatalog imports a generic catalog (its images read from its
// folder) and returns the report.
func (e *env) importCatalog(path string) *importer.Report {
	e.T.Helper()
	text, err := templates.Get("generic")
	if err != nil {
		e.T.Fatal(err)
	}
	m, err := mapping.Parse("generic.yaml", text)
	if err != nil {
		e.T.Fatal(err)
	}
	rep, err := importer.Import(context.Background(), importer.Options{Options: engine.Options{Client: e.C, State: e.State,
		Scope: scope, Mapping: m, Input: path}, MappingText: text})
	if err != nil {
		e.T.Fatal(err)
	}
	return rep
}

// col is the index of column name in the generic header.
func col(header []string, name string) int { return slices.Index(header, name) }

// changedCatalog seeds the account with a catalog of 6 products of 2
// variants and a product without tags, and returns it exported, with a
// second catalog that changes it: a product renamed and retagged, a
// description, costs and a price changed, tags given to the product that
// had none, a variant added to a product, an image uploaded to another,
// and two products created, one with an image.
func (e *env) changedCatalog() (before []byte, changed string) {
	e.T.Helper()
	header, rows := catalogRows(e.T, 6, 2)
	bare := make([]string, len(header))
	bare[col(header, "product_key")], bare[col(header, "product_name")], bare[col(header, "sku")] = "BARE", "Bare", "BARE-1"
	rows = append(rows, bare)
	e.importCatalog(e.writeCatalog("seed.csv", header, rows))
	before = e.export("before.csv")

	set := func(sku, column, value string) {
		for _, r := range rows {
			if r[col(header, "sku")] == sku {
				r[col(header, column)] = value
			}
		}
	}
	set("P000001-Red-S", "product_name", "Renamed")
	set("P000001-Red-S", "tags", "Classic|New")
	set("P000002-Red-S", "product_description", "Changed")
	set("P000003-Red-S", "cost", "77")
	set("P000003-Red-M", "cost", "78")
	set("P000003-Red-S", "tier:Retail", "123.45")
	set("BARE-1", "tags", "fresh|new")
	set("P000005-Red-S", "images", "img-2.jpg")
	added := slices.Clone(rows[6])
	added[col(header, "sku")], added[col(header, "option1_value")], added[col(header, "option2_value")] = "P000004-Blue-S", "Blue", "S"
	rows = append(rows, added)
	for i, key := range []string{"N001", "N002"} {
		for _, size := range []string{"S", "M"} {
			r := make([]string, len(header))
			r[col(header, "product_key")], r[col(header, "product_name")], r[col(header, "sku")] = key, "New "+key, key+"-"+size
			r[col(header, "option1_name")], r[col(header, "option1_value")], r[col(header, "tags")] = "Size", size, "new"
			r[col(header, "cost")], r[col(header, "tier:Retail")] = fmt.Sprint(3+i), "9.5"
			if i == 0 && size == "S" {
				r[col(header, "images")] = "img-1.jpg"
			}
			rows = append(rows, r)
		}
	}
	for i, name := range []string{"img-1.jpg", "img-2.jpg"} {
		if err := os.WriteFile(filepath.Join(e.Dir, name), imagestest.JPEG(i, 4096), 0o644); err != nil {
			e.T.Fatal(err)
		}
	}
	return before, e.writeCatalog("changed.csv", header, rows)
}

// An import into an account that already holds products, then undone:
// the account's products and variants, exported as CSV, are as they were
// before the import, byte for byte. A dry run of the undo writes nothing
// and counts what the undo then does; the created products and variants
// are deleted, the changed fields, prices and tags set back, the uploaded
// files deleted.
func TestUndoImport(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	before, changed := e.changedCatalog()
	rep := e.importCatalog(changed)
	if rep.Failed() > 0 || rep.Products[engine.Created] != 2 || rep.Images[importer.Uploaded] != 2 {
		t.Fatalf("import: rows %v products %v images %v", rep.Rows, rep.Products, rep.Images)
	}
	if after := e.export("imported.csv"); bytes.Equal(after, before) {
		t.Fatal("the import changed nothing")
	}

	reqs := e.Srv.Counters().Requests
	dry, err := e.undo(context.Background(), rep.RunID, func(o *undo.Options) { o.DryRun = true })
	if err != nil || writesSince(reqs, e.Srv.Counters().Requests) != 0 {
		t.Fatalf("dry run: %v, %d writes; want none", err, writesSince(reqs, e.Srv.Counters().Requests))
	}
	want := engine.Counts{undo.ToRestore: 6, engine.ToDelete: 5}
	if dry.Rows[undo.ToRestore] != want[undo.ToRestore] || dry.Rows[engine.ToDelete] != want[engine.ToDelete] || dry.Failed() > 0 {
		t.Errorf("dry run: %v, want %v", dry.Rows, want)
	}

	done, err := e.undo(context.Background(), rep.RunID)
	if err != nil || done.Failed() > 0 {
		t.Fatalf("undo: %v %v", done.Rows, err)
	}
	if done.Writes != int64(dry.RequestsPlanned) || done.Rows[undo.Restored] != 6 || done.Rows[engine.Deleted] != 5 {
		t.Errorf("undo: %v in %d writes; the dry run said %v in %d", done.Rows, done.Writes, dry.Rows, dry.RequestsPlanned)
	}
	if after := e.export("undone.csv"); !bytes.Equal(after, before) {
		t.Errorf("after the undo the catalog differs from before the import:\n%s\nwant\n%s", after, before)
	}
}

// writesSince counts the write requests between two counter readings.
func writesSince(before, after map[string]int64) int64 {
	var n int64
	for path, c := range after {
		if strings.Contains(path, "/v1/") {
			n += c - before[path]
		}
	}
	return n
}

// A value someone changed between the import and its undo is kept and
// reported with its three values (the undo's rows fail: exit 3); the
// rest is taken back; the later run that changed it is named;
// a forced undo sets the value back, and the account is as before the
// import.
func TestUndoImportConflict(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	before, changed := e.changedCatalog()
	rep := e.importCatalog(changed)
	// A later import sets a cost the first one set again.
	b, err := os.ReadFile(changed)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r[col(recs[0], "sku")] == "P000003-Red-M" {
			r[col(recs[0], "cost")] = "81"
		}
	}
	later := e.importCatalog(e.writeCatalog("later.csv", recs[0], recs[1:]))
	if later.Variants[engine.Updated] != 1 {
		t.Fatalf("later import: %v", later.Variants)
	}

	got, err := e.undo(context.Background(), rep.RunID)
	if err != nil || got.Rows[engine.Conflict] != 1 || got.Failed() != 1 || got.Rows[undo.Restored] != 5 {
		t.Fatalf("undo: %v %v; want 1 conflict, 5 restored", got.Rows, err)
	}
	for _, l := range got.Lines {
		if l.Action == engine.Conflict && !strings.Contains(l.Msg, "cost is 81 now; the run set 78; it was 5 before; kept as it is") {
			t.Errorf("conflict: %q", l.Msg)
		}
	}
	if !slices.Equal(got.Later, []int64{later.RunID}) {
		t.Errorf("later runs %v, want %d, which wrote the cost again", got.Later, later.RunID)
	}
	forced, err := e.undo(context.Background(), rep.RunID, func(o *undo.Options) { o.Force = true })
	if err != nil || forced.Rows[undo.Restored] != 1 || forced.Failed() > 0 {
		t.Fatalf("forced: %v %v; want the conflict set back", forced.Rows, err)
	}
	if after := e.export("undone.csv"); !bytes.Equal(after, before) {
		t.Errorf("after the forced undo the catalog differs from before the import:\n%s\nwant\n%s", after, before)
	}
}

// An undo interrupted while the answer to its first write was lost is
// left to finish: run again, it reads back what it sent, takes back the
// rest, and the account ends as an undo never interrupted leaves it; its
// lines say what the earlier attempt did.
func TestUndoImportInterrupted(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	before, changed := e.changedCatalog()
	rep := e.importCatalog(changed)

	first, err := e.undoCut(rep.RunID)
	if !errors.Is(err, engine.ErrInterrupted) || first.Rows[engine.Failed] == 0 {
		t.Fatalf("interrupted undo: %v %v; want the first batch failed without an answer", first.Rows, err)
	}
	again, err := e.undo(context.Background(), rep.RunID)
	if err != nil || again.Failed() > 0 {
		t.Fatalf("run again: %v %v", again.Rows, err)
	}
	if again.Rows[engine.Deleted] != 5 {
		t.Errorf("run again: %v; want the 5 records the run created deleted (2 by the first attempt)", again.Rows)
	}
	if after := e.export("after.csv"); !bytes.Equal(after, before) {
		t.Errorf("after the undo run again the catalog differs from before the import:\n%s\nwant\n%s", after, before)
	}
	runs, err := e.State.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	undos := 0
	for _, r := range runs {
		if r.Command == "undo" {
			undos++
		}
	}
	if undos != 1 {
		t.Errorf("%d undo runs; the second attempt resumes the first", undos)
	}
}

// Undoing the undo of an import sets its fields, prices and tags again;
// what the undo deleted stays deleted (the service brings nothing back),
// and each of those lines says so.
func TestUndoTheUndoOfAnImport(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	_, changed := e.changedCatalog()
	rep := e.importCatalog(changed)
	if _, err := e.undo(context.Background(), rep.RunID); err != nil {
		t.Fatal(err)
	}
	redo, err := e.undo(context.Background(), e.lastRun())
	if err != nil || redo.Rows[undo.Restored] != 6 || redo.Rows[engine.Skipped] != 5 {
		t.Fatalf("redo: %v %v; want 6 restored, 5 not brought back", redo.Rows, err)
	}
	for _, l := range redo.Lines {
		if l.Action == engine.Skipped && !strings.Contains(l.Msg, "has no way to bring back a deleted") {
			t.Errorf("%s %s: %q", l.Resource, l.Key, l.Msg)
		}
	}
	var renamed api.ID
	for _, l := range redo.Lines {
		if l.Key == "P000001" && l.After["name"] != "" {
			renamed = api.ID(l.RecordID)
		}
	}
	p, err := e.C.Products.Get(context.Background(), renamed)
	if err != nil || len(p.Records) != 1 {
		t.Fatal(renamed, err)
	}
	if name := string(p.Records[0].Name); name != "Renamed" {
		t.Errorf("after the redo the product is named %q, want the import's Renamed", name)
	}
}

// With --archive the products the import created are archived, with
// their images; a variant it added to a product that was there is still
// deleted, as is an image it uploaded to one; an archived product is not
// archived twice.
func TestUndoImportArchive(t *testing.T) {
	t.Parallel()
	e := &env{sandboxtest.New(t, sandbox.Options{})}
	_, changed := e.changedCatalog()
	rep := e.importCatalog(changed)
	archive := func(o *undo.Options) { o.Archive = true }
	got, err := e.undo(context.Background(), rep.RunID, archive)
	want := engine.Counts{engine.Archived: 2, engine.Deleted: 2, engine.Unchanged: 1, undo.Restored: 6}
	if err != nil || !maps.Equal(got.Rows, want) {
		t.Fatalf("undo --archive: %v %v; want %v", got.Rows, err, want)
	}
	archived := 0
	for p, err := range e.C.Products.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Archived.Bool() {
			archived++
			if !strings.HasPrefix(string(p.Name), "New N00") || len(p.Links.IDs(wire.ProductFiles)) != map[bool]int{true: 1, false: 0}[p.Name == "New N001"] {
				t.Errorf("archived %q with files %v", p.Name, p.Links.IDs(wire.ProductFiles))
			}
		}
	}
	if archived != 2 {
		t.Errorf("%d products archived, want the 2 the import created", archived)
	}
	again, err := e.undo(context.Background(), rep.RunID, archive)
	if err != nil || again.Writes != 0 || again.Rows[engine.Archived] != 0 || again.Rows[engine.Unchanged] != 9 {
		t.Errorf("again: %v %v, %d writes; want the archived products unchanged, nothing written", again.Rows, err, again.Writes)
	}
}
