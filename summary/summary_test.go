package summary_test

import (
	"fmt"
	"testing"
	"time"

	"lading/api"
	"lading/engine"
	"lading/stock"
	"lading/summary"
)

func ExampleText() {
	fmt.Println(summary.Text(engine.Counts{engine.Failed: 1, stock.Sent: 3, engine.Unchanged: 20, engine.Invalid: 0}))
	fmt.Println(summary.Text(nil))
	// Output:
	// 3 sent, 20 unchanged, 1 failed
	// none
}

// Statuses come in Order, one that Order does not know after those it
// does, and none that counted nothing.
func TestCounts(t *testing.T) {
	t.Parallel()
	got := summary.Counts(engine.Counts{"zapped": 2, engine.Failed: 1, engine.Created: 4, engine.Skipped: 0})
	want := []summary.Count{{engine.Created, 4}, {engine.Failed, 1}, {"zapped", 2}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := summary.Of(map[string]int{"sent": 2}); got[stock.Sent] != 2 {
		t.Errorf("Of: %v", got)
	}
}

func TestDuration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		requests int
		rate     float64
		want     time.Duration
	}{{10, 5, 2 * time.Second}, {1, 5, 0}, {3, 2, 2 * time.Second}, {10, 0, 0}} {
		if got := summary.Duration(tc.requests, tc.rate); got != tc.want {
			t.Errorf("%d requests at %v/s: %s, want %s", tc.requests, tc.rate, got, tc.want)
		}
	}
	if n := summary.Requests(501, 250); n != 3 {
		t.Errorf("501 records by 250: %d requests, want 3", n)
	}
}

func ExampleTraffic() {
	fmt.Println(summary.Traffic(api.Traffic{Requests: 3, Writes: 1, Reads: 2}, 1234*time.Millisecond))
	// Output: 3 requests (1 write, 2 reads; 0 throttled) in 1.234s
}
