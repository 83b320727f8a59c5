package api

import (
	"errors"
	"strings"
	"testing"
	"time"

	"lading/api/wire"
)

func TestFilterValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		resource string
		f        *Filter
		rule     string   // "" means valid
		mention  []string // substrings the message must carry
	}{
		{"simple", wire.Variants, And(Where("sku", "", "A")), "", nil},
		{"and with nested or", wire.Variants, And(Where("bundle", "", "0"), Or(Where("sku", "", "A"), Where("sku", "=", "B"))), "", nil},
		{"and in and flattens", wire.Products, And(Where("archived", "", 0), And(Where("name", "!=", "x"))), "", nil},
		{"or alone", wire.Variants, Or(Where("sku", "", "A"), Where("sku", "", "B")), "", nil},
		{"every operation", wire.Variants, And(Where("stock", ">=", 1), Where("stock", "<=", 9), Where("stock", ">", 0), Where("stock", "<", 10), Where("stock", "!=", 5), Where("stock", "=", 4)), "", nil},
		{"not filterable", wire.Variants, And(Where("colour", "", "red")), RuleFilterable, []string{`"colour"`, "auto_description", "weight"}},
		{"not filterable on products", wire.Products, And(Where("sku", "", "A")), RuleFilterable, []string{`"sku"`, "Products", "archived"}},
		{"bad operation", wire.Variants, And(Where("sku", "~", "A")), RuleOperation, []string{`"~"`, "sku", ">=", "!="}},
		{"three conditionals", wire.Variants, And(Where("sku", "", "A"), Or(Where("sku", "", "B")), Or(Where("sku", "", "C"))), RuleConditionals, []string{"at most 2", "and, or"}},
		{"and inside or", wire.Variants, Or(Where("sku", "", "A"), And(Where("stock", ">", 1))), RuleNesting, []string{`"and" inside an "or"`}},
		{"or inside or inside and", wire.Variants, And(Where("sku", "", "A"), Or(Where("sku", "", "B"), And(Where("sku", "", "C")))), RuleNesting, nil},
		{"empty", wire.Variants, And(), RuleEmpty, []string{"at least one"}},
		{"bad value", wire.Variants, And(Where("sku", "", []string{"A"})), RuleValue, []string{"[]string", "sku"}},
		{"nil value", wire.Variants, And(Where("sku", "", nil)), RuleValue, nil},
		{"no listing", wire.Packages, And(Where("id", "", 1)), RuleResource, []string{"Packages", "PackingSlips"}},
		{"no attribute", wire.Variants, And(Where("", "", 1)), RuleFilterable, nil},
		{"archived not filterable on packing slips", wire.PackingSlips, And(Where("archived", "", "0")), RuleFilterable, []string{"archived"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.f.Validate(tt.resource)
			if tt.rule == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var qe *QueryError
			if !errors.As(err, &qe) {
				t.Fatalf("err = %v, want *QueryError", err)
			}
			if qe.Rule != tt.rule {
				t.Errorf("rule = %q, want %q (%v)", qe.Rule, tt.rule, err)
			}
			if !strings.Contains(err.Error(), "rule: "+tt.rule) {
				t.Errorf("message does not name the rule: %v", err)
			}
			for _, m := range tt.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("message lacks %q: %v", m, err)
				}
			}
			if Classify(err) != Rejected {
				t.Errorf("Classify = %v", Classify(err))
			}
		})
	}
}

func TestFilterWireForm(t *testing.T) {
	t.Parallel()
	day := time.Date(2024, 3, 9, 15, 4, 0, 0, time.UTC)
	tests := []struct {
		f    *Filter
		want string
	}{
		{And(Where("archived", "", "0")), `{"and":[{"archived":"0"}]}`},
		{And(Where("created_at", ">=", day), Where("stock", "<", 2.5), Where("bundle", "", false)),
			`{"and":[{"created_at":"2024-03-09","operation":">="},{"stock":"2.5","operation":"<"},{"bundle":"0"}]}`},
		{Or(Where("sku", "", "A"), Where("sku", "=", ID("B"))), `{"or":[{"sku":"A"},{"sku":"B"}]}`},
		{And(Where("bundle", "", 0), Or(Where("sku", "", "A"), Where("sku", "", "B"))),
			`{"and":[{"bundle":"0"}],"or":[{"sku":"A"},{"sku":"B"}]}`},
	}
	for _, tt := range tests {
		b, err := tt.f.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tt.want {
			t.Errorf("got  %s\nwant %s", b, tt.want)
		}
	}
}

func TestListOptionsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		opts *ListOptions
		rule string
	}{
		{nil, ""},
		{&ListOptions{PageSize: wire.MaxPageSize, Sort: []Sort{{Attr: "sku", Desc: true}}}, ""},
		{&ListOptions{PageSize: wire.MaxPageSize + 1}, RulePageSize},
		{&ListOptions{PageSize: -1}, RulePageSize},
		{&ListOptions{Sort: []Sort{{Attr: "price"}}}, RuleSortable},
		{&ListOptions{Filter: And(Where("price", "", 1))}, RuleFilterable},
	}
	for i, tt := range tests {
		err := tt.opts.Validate(wire.Variants)
		var qe *QueryError
		switch {
		case tt.rule == "" && err != nil:
			t.Errorf("%d: unexpected %v", i, err)
		case tt.rule != "" && (!errors.As(err, &qe) || qe.Rule != tt.rule):
			t.Errorf("%d: err = %v, want rule %s", i, err, tt.rule)
		}
	}
}
