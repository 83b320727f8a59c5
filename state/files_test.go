package state

import (
	"context"
	"reflect"
	"testing"
)

// TestFiles: files are remembered by scope, product and place, replaced
// at the same place, forgotten, kept across a reopen, and confirmed with
// the batch that uploaded them in one transaction.
func TestFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := openTemp(t)
	scope, other := KeyFiles("acct-a"), KeyFiles("acct-b")
	front := File{Product: "11", Place: "https://cdn.example/front.jpg", FileID: "901", Hash: "aa", Size: 1200, Name: "front.jpg", Ours: true, ETag: `"v1"`}
	back := File{Product: "11", Place: "media/back.png", FileID: "902", Hash: "bb", Size: 800, Name: "back.png"}
	side := File{Product: "12", Place: "https://cdn.example/front.jpg", FileID: "903", Hash: "aa", Size: 1200, Name: "front.jpg", Ours: true}
	if err := db.PutFiles(ctx, scope, []File{front, back, side}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.PutFiles(ctx, other, []File{{Product: "11", Place: "x", FileID: "1", Hash: "cc", Name: "x"}}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := db.Files(ctx, scope, []string{"11", "13"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []File{front, back}; !reflect.DeepEqual(got, want) {
		t.Errorf("files of product 11:\n got %+v\nwant %+v", got, want)
	}
	at, err := db.FilesAt(ctx, scope, []string{front.Place})
	if err != nil {
		t.Fatal(err)
	}
	if want := []File{front, side}; !reflect.DeepEqual(at, want) {
		t.Errorf("files at %s:\n got %+v\nwant %+v", front.Place, at, want)
	}

	// The content at front's place changed: the new file replaces it,
	// and back is forgotten, with the batch's outcome.
	run, _, err := db.StartRun(ctx, "fp", "import", nil)
	if err != nil {
		t.Fatal(err)
	}
	intent, err := db.RecordIntent(ctx, run.ID, "files.upload", []string{"11"}, []byte(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	newer := front
	newer.FileID, newer.Hash, newer.ETag = "904", "dd", `"v2"`
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomeApplied, Files: []Files{{Scope: scope, Put: []File{newer}, Forget: []FileKey{back.Key()}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Settle(ctx, intent, Settlement{Outcome: OutcomePending, Files: []Files{{Scope: scope, Put: []File{back}}}}); err == nil {
		t.Error("Settle took a pending outcome")
	}
	db = reopen(t, db, p)
	got, err = db.Files(ctx, scope, []string{"11", "12"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []File{newer, side}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the replacement:\n got %+v\nwant %+v", got, want)
	}
	if open, _ := db.OpenIntents(ctx, run.ID); len(open) != 0 {
		t.Errorf("the confirmed batch is still open: %+v", open)
	}
}
