package sandbox

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// comboKey gives the key the database holds for a combination: the
// options' "ATTRIBUTE=OPTION" sorted as text and joined by ";", whatever
// their number and order.
func TestComboKey(t *testing.T) {
	t.Parallel()
	want := func(opts []chosenOption) string { // as keys were made when the database was written
		parts := make([]string, len(opts))
		for i, o := range opts {
			parts[i] = strconv.FormatInt(o.attr.id, 10) + "=" + strconv.FormatInt(o.option, 10)
		}
		slices.Sort(parts)
		return strings.Join(parts, ";")
	}
	opt := func(attr, option int64) chosenOption { return chosenOption{attr: attrRef{id: attr}, option: option} }
	for _, c := range []struct {
		opts []chosenOption
		key  string
	}{
		{nil, ""},
		{[]chosenOption{opt(7, 70)}, "7=70"},
		{[]chosenOption{opt(9, 1), opt(10, 2)}, "10=2;9=1"}, // as text, not as numbers
		{[]chosenOption{opt(100000003, 100000009), opt(100000002, 100000011)}, "100000002=100000011;100000003=100000009"},
	} {
		if got := comboKey(c.opts); got != c.key {
			t.Errorf("comboKey(%v) = %q, want %q", c.opts, got, c.key)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		opts := make([]chosenOption, r.IntN(comboRoom+5))
		for i := range opts {
			opts[i] = opt(r.Int64N(1<<r.IntN(63)), r.Int64N(1<<r.IntN(63)))
		}
		if got, w := comboKey(opts), want(opts); got != w {
			t.Fatalf("comboKey(%v) = %q, want %q", opts, got, w)
		}
	}
}

// A variant's descriptions are its product's name and its options', as
// the service writes them, plain and with the attributes' names.
func TestAutoDescriptions(t *testing.T) {
	t.Parallel()
	opt := func(attr, value string) chosenOption { return chosenOption{attr: attrRef{name: attr}, value: value} }
	for _, c := range []struct {
		name        string
		opts        []chosenOption
		plain, with string
	}{
		{"Mug", nil, "Mug", "Mug"},
		{"Tee", []chosenOption{opt("Color", "Black")}, "Tee (Black)", "Tee (Color: Black)"},
		{"Filament", []chosenOption{opt("Color", "Black"), opt("Size", "S")}, "Filament (Black, S)", "Filament (Color: Black, Size: S)"},
		{"", []chosenOption{opt("", ""), opt("Größe", "Ü")}, " (, Ü)", " (: , Größe: Ü)"},
	} {
		plain, with := autoDescriptions(c.name, c.opts)
		if plain != c.plain || with != c.with {
			t.Errorf("autoDescriptions(%q, %v) = %q, %q; want %q, %q", c.name, c.opts, plain, with, c.plain, c.with)
		}
	}
}
