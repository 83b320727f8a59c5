package plural

import "testing"

func TestCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "row", "0 rows"},
		{1, "row", "1 row"},
		{2, "request", "2 requests"},
		{1, "unit", "1 unit"},
		{3, "status", "3 statuses"},
		{2, "batch", "2 batches"},
		{2, "entry", "2 entries"},
		{2, "day", "2 days"},
		{1, "open fulfillment", "1 open fulfillment"},
		{5, "write request", "5 write requests"},
		{-1, "unit", "-1 unit"},
		{1500, "row", "1,500 rows"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	if got := Count(int64(1), "read"); got != "1 read" {
		t.Errorf("Count of an int64: %q", got)
	}
	if got := Word(2, "it is", "they are"); got != "they are" {
		t.Errorf("Word(2): %q", got)
	}
}
