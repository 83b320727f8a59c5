package catalog

import (
	"strings"
	"testing"

	"lading/mapping"
)

// A product's command is the one its rows give; delete on a row that is
// both (one row per variant) deletes its variant; rows that give a
// product two commands are an error of the second.
func TestGroupCommands(t *testing.T) {
	t.Parallel()
	src := "group:\n  key: key\nproduct:\n  name: name\nvariant:\n  sku: sku\noptions:\n  columns: [Size]\ncommand: {column: command, optional: true}\n"
	header := []string{"key", "name", "sku", "Size", "command"}
	res := group(t, src, header,
		[]string{"A", "Alpha", "A-1", "S", "archive"},
		[]string{"A", "Alpha", "A-2", "M", ""},
		[]string{"A", "Alpha", "A-3", "L", "delete"},
		[]string{"B", "Beta", "B-1", "", "delete"},
		[]string{"C", "Gamma", "C-1", "S", "update"},
		[]string{"C", "Gamma", "C-2", "M", "create"},
		[]string{"D", "Delta", "D-1", "", ""},
	)
	ps := byKey(res)
	a, b, c, d := ps["A"], ps["B"], ps["C"], ps["D"]
	if a.Command() != mapping.CommandArchive || !a.Valid() {
		t.Errorf("A: command %q, errors %s; want archive", a.Command(), errText(a))
	}
	var deleted []string
	for _, p := range res.Products {
		for i := range p.Variants {
			if v := &p.Variants[i]; v.Delete() {
				deleted = append(deleted, v.SKU())
			}
		}
	}
	if strings.Join(deleted, ",") != "A-3,B-1" {
		t.Errorf("variants to delete %v, want A-3 and B-1", deleted)
	}
	if a.Variants[2].Row().Line != 4 {
		t.Errorf("A-3's row is %v, want line 4", a.Variants[2].Row())
	}
	if b.Command() != mapping.CommandNone {
		t.Errorf("B: command %q; a both row's delete is its variant's", b.Command())
	}
	if c.Valid() || !strings.Contains(errText(c), `column "command", value "create": command differs from "update" given on row 6`) {
		t.Errorf("C: errors %q, want the second command refused", errText(c))
	}
	if d.Command() != mapping.CommandNone || d.Variants[0].Delete() {
		t.Errorf("D: %q %v, want no command", d.Command(), d.Variants[0].Delete())
	}
}

// On a product row a delete is the product's, on a variant row its
// variant's.
func TestGroupCommandsByParent(t *testing.T) {
	t.Parallel()
	src := "group:\n  by: parent\n  key: sku\n  parent: parent\n  role: {expr: 'parent == \"\" ? \"product\" : \"variant\"'}\n" +
		"product:\n  name: name\nvariant:\n  sku: sku\noptions:\n  columns: [Size]\ncommand: command\n"
	res := group(t, src, []string{"sku", "parent", "name", "Size", "command"},
		[]string{"P", "", "Parent", "", "delete"},
		[]string{"P-1", "P", "", "S", ""},
		[]string{"Q", "", "Other", "", ""},
		[]string{"Q-1", "Q", "", "S", "delete"},
		[]string{"Q-2", "Q", "", "M", ""},
	)
	ps := byKey(res)
	if p := ps["P"]; p.Command() != mapping.CommandDelete || p.Variants[0].Delete() {
		t.Errorf("P: %q, variant delete %v; want the product deleted", p.Command(), p.Variants[0].Delete())
	}
	if q := ps["Q"]; q.Command() != mapping.CommandNone || !q.Variants[0].Delete() || q.Variants[1].Delete() {
		t.Errorf("Q: %q; want Q-1 deleted alone", q.Command())
	}
}
