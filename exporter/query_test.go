package exporter

import (
	"encoding/json"
	"strings"
	"testing"

	"lading/api/wire"
)

func TestQueryListOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		resource string
		q        Query
		filter   string // the filter's JSON, "" for none
		sort     string
		err      string // a part of the error, "" for none
	}{
		{"all hold", wire.Products, Query{Where: []string{"updated_at >= 2026-01-01", "archived = 0"}},
			`{"and":[{"updated_at":"2026-01-01","operation":"\u003e="},{"archived":"0"}]}`, "", ""},
		{"any", wire.PackingSlips, Query{Where: []string{"status=shipped", `status != "void"`}, Any: true},
			`{"or":[{"status":"shipped"},{"status":"void","operation":"!="}]}`, "", ""},
		{"sort descending", wire.PackingSlips, Query{Sort: []string{"-packing_slip_date", "id"}}, "", `[{packing_slip_date desc} {id asc}]`, ""},
		{"not filterable", wire.Products, Query{Where: []string{"sku = A"}}, "", "", `"sku" cannot be filtered on; allowed: id, archived`},
		{"operator typo", wire.PackingSlips, Query{Where: []string{"ship_date => 2026-10-01"}}, "", "", `"ship_date => 2026-10-01": "=>" is not an operator; did you mean >=?; allowed: =, >=`},
		{"operator typo, no spaces", wire.PackingSlips, Query{Where: []string{"ship_date=<2026-10-01"}}, "", "", `"=<" is not an operator; did you mean <=?`},
		{"doubled equals", wire.Products, Query{Where: []string{"archived == 0"}}, "", "", `"==" is not an operator; did you mean =?`},
		{"not equal", wire.Products, Query{Where: []string{"archived <> 1"}}, "", "", `did you mean !=?`},
		{"value starting like an operator", wire.Variants, Query{Where: []string{"sku = =A1"}}, `{"and":[{"sku":"=A1"}]}`, "", ""},
		{"no operator", wire.Products, Query{Where: []string{"name"}}, "", "", "ATTRIBUTE OPERATOR VALUE"},
		{"bad date", wire.Products, Query{Where: []string{"updated_at > 01/02/2026"}}, "", "", "YYYY-MM-DD"},
		{"bad id", wire.Variants, Query{Where: []string{"id = x1"}}, "", "", "record id"},
		{"bad flag", wire.Variants, Query{Where: []string{"bundle = yes"}}, "", "", "0 or 1"},
		{"bad number", wire.Variants, Query{Where: []string{"weight < 1,5"}}, "", "", "decimal point"},
		{"empty text", wire.Variants, Query{Where: []string{"sku ="}}, "", "", "give a value"},
		{"not sortable", wire.ProductTags, Query{Sort: []string{"-sku"}}, "", "", `cannot be sorted by "sku"`},
		{"no listing", "Packages", Query{}, "", "", "has no listing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, err := tt.q.ListOptions(tt.resource)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.filter != "" {
				b, err := json.Marshal(o.Filter)
				if err != nil || string(b) != tt.filter {
					t.Errorf("filter %s (%v), want %s", b, err, tt.filter)
				}
			}
			if tt.sort != "" {
				got := ""
				for _, s := range o.Sort {
					dir := "asc"
					if s.Desc {
						dir = "desc"
					}
					got += " {" + s.Attr + " " + dir + "}"
				}
				if "["+strings.TrimSpace(got)+"]" != tt.sort {
					t.Errorf("sort %s, want %s", got, tt.sort)
				}
			}
		})
	}
}
