package mapping

import (
	"strings"
	"testing"
)

// A row's command is read in any case and trimmed; an empty cell is
// none; a word that is no command, or a product's command on a variant
// row, is an error of the row naming the column, the value and the
// choices.
func TestCommand(t *testing.T) {
	t.Parallel()
	src := "group:\n  by: parent\n  key: SKU\n  parent: Parent\nproduct:\n  name: Name\ncommand: Command\n"
	p := program(t, src, "SKU", "Parent", "Name", "Command")
	tests := []struct {
		parent, cell string
		want         Command
		errHas       string
	}{
		{"", "", CommandNone, ""},
		{"", " Archive ", CommandArchive, ""},
		{"", "DELETE", CommandDelete, ""},
		{"", "upsert", CommandUpsert, ""},
		{"", "create", CommandCreate, ""},
		{"", "update", CommandUpdate, ""},
		{"", "skip", CommandSkip, ""},
		{"", "replace", CommandNone, `column "Command" value "replace" (command): is no command: give upsert, create, update, archive, delete or skip`},
		{"P1", "delete", CommandDelete, ""},
		{"P1", "Upsert", CommandNone, ""},
		{"P1", "", CommandNone, ""},
		{"P1", "archive", CommandNone, `column "Command" value "archive" (command): a variant row may say delete (to delete its variant) or nothing: archive is said of a product`},
	}
	for _, tt := range tests {
		r := eval(t, p, "S1", tt.parent, "Tee", tt.cell)
		if r.Command != tt.want {
			t.Errorf("parent %q, cell %q: command %q, want %q", tt.parent, tt.cell, r.Command, tt.want)
		}
		switch {
		case tt.errHas == "" && len(r.Errors) > 0:
			t.Errorf("cell %q: errors %v", tt.cell, r.Errors)
		case tt.errHas != "" && (len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error(), tt.errHas)):
			t.Errorf("cell %q: errors %v, want one with %q", tt.cell, r.Errors, tt.errHas)
		}
	}
}

// A command may come through an expression, like Matrixify's words
// through a lookup table; an optional column missing from the file
// leaves every row to the mode.
func TestCommandExpressionAndOptional(t *testing.T) {
	t.Parallel()
	src := minimal + "command: {column: Command, optional: true, expr: 'lookup(\"matrixify\", upper(value), value)'}\n" +
		"tables:\n  matrixify: {MERGE: upsert, NEW: create, IGNORE: skip}\n"
	p := program(t, src, "Handle", "Title", "Command")
	for cell, want := range map[string]Command{"new": CommandCreate, "Merge": CommandUpsert, "IGNORE": CommandSkip, "delete": CommandDelete, "": CommandNone} {
		if r := eval(t, p, "h", "T", cell); r.Command != want || len(r.Errors) > 0 {
			t.Errorf("%q: command %q %v, want %q", cell, r.Command, r.Errors, want)
		}
	}
	if r := eval(t, p, "h", "T", "REPLACE"); len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Error(), `value "REPLACE"`) {
		t.Errorf("REPLACE: errors %v, want one naming the cell", r.Errors)
	}
	absent := program(t, src, "Handle", "Title")
	if r := eval(t, absent, "h", "T"); r.Command != CommandNone || len(r.Errors) > 0 {
		t.Errorf("without the column: %q %v", r.Command, r.Errors)
	}
}
