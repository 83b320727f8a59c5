package sandbox

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestAppendIDList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		list string
		want []int64
		bad  bool
	}{
		{"", nil, false},
		{"7", []int64{7}, false},
		{"100000001,100000003,2", []int64{100000001, 100000003, 2}, false},
		{"0,01", []int64{0, 1}, false},
		{"1,", nil, true},
		{",1", nil, true},
		{"1,,2", nil, true},
		{"-1", nil, true},
		{"1 ,2", nil, true},
		{"1234567890123456789", nil, true},
	} {
		got, err := appendIDList(nil, c.list)
		if (err != nil) != c.bad || (!c.bad && !slices.Equal(got, c.want)) {
			t.Errorf("appendIDList(%q) = %v, %v; want %v (error %v)", c.list, got, err, c.want, c.bad)
		}
	}
}

// FuzzAppendIDList: a list is read into ids that write it again (less any
// leading zeros), or refused.
func FuzzAppendIDList(f *testing.F) {
	for _, s := range []string{"", "1", "100000001,100000002", "1,,2", "x", "999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		ids, err := appendIDList(nil, list)
		if err != nil {
			return
		}
		var parts []string
		for _, p := range strings.Split(list, ",") {
			if list == "" {
				break
			}
			n, perr := strconv.ParseInt(p, 10, 64)
			if perr != nil || n < 0 || strings.HasPrefix(p, "+") {
				t.Fatalf("%q read as %v, but item %q is not an id", list, ids, p)
			}
			parts = append(parts, strconv.FormatInt(n, 10))
		}
		var again []string
		for _, id := range ids {
			again = append(again, strconv.FormatInt(id, 10))
		}
		if !slices.Equal(parts, again) {
			t.Fatalf("%q read as %v", list, ids)
		}
	})
}
