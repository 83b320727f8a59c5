package exporter

import "testing"

func TestQueryWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		q        Query
		resource string
		want     string
	}{
		{Query{}, PackingSlips, "every packing slip"},
		{Query{Sort: []string{"-id"}}, Fulfillments, "every open fulfillment"},
		{Query{Where: []string{"packing_slip_date >= 2026-10-01", "packing_slip_date < 2026-11-01"}}, PackingSlips,
			"packing slip date 2026-10-01 to 2026-10-31"},
		{Query{Where: []string{"ship_date > 2026-09-30", "void = 0", "ship_date <= 2026-10-31"}}, PackingSlips,
			"ship date 2026-10-01 to 2026-10-31 and not void"},
		{Query{Where: []string{"packing_slip_date >= 2026-10-01"}}, PackingSlips, "packing slip date on or after 2026-10-01"},
		{Query{Where: []string{"created_at > 2026-10-01", "updated_at <= '2026-10-05'"}}, Variants,
			"created after 2026-10-01 and updated on or before 2026-10-05"},
		{Query{Where: []string{"packing_slip_date >= 2026-10-01", "packing_slip_date < 2026-11-01"}, Any: true}, PackingSlips,
			"packing slip date on or after 2026-10-01 or packing slip date before 2026-11-01"},
		{Query{Where: []string{"status = shipped", "status != packed"}, Any: true}, PackingSlips, "status is shipped or status is not packed"},
		{Query{Where: []string{"void != 0", "archived = 0", "weight => 2", "stock < 5"}}, Variants, "void and not archived and weight at least 2 and stock below 5"},
		{Query{Where: []string{"not a condition"}}, Tags, "not a condition"},
	} {
		if got := tt.q.Words(tt.resource); got != tt.want {
			t.Errorf("%+v in words: %q, want %q", tt.q, got, tt.want)
		}
	}
}
