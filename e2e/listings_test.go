package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"lading/api"
	"lading/api/wire"
)

// listing is one v2 listing under test: how to create n records of it and
// how to list their ids.
type listing struct {
	resource string
	create   func(e *env, n int) []api.ID
	list     func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error)
}

func listIDs[T any](seq func(func(T, error) bool), id func(T) api.ID) ([]api.ID, error) {
	var out []api.ID
	for r, err := range seq {
		if err != nil {
			return out, err
		}
		if len(out) == maxListed {
			return out, errEndless
		}
		out = append(out, id(r))
	}
	return out, nil
}

var listings = []listing{
	{wire.PackingSlips,
		func(e *env, n int) []api.ID {
			recs := make([]api.PackingSlipWrite, n)
			for i := range recs {
				recs[i].Notes = api.String(fmt.Sprint("slip ", i))
			}
			return applied(e.t)(e.c.PackingSlips.Write(e.t.Context(), recs))
		},
		func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error) {
			return listIDs(c.PackingSlips.List(ctx, o), func(r *api.PackingSlip) api.ID { return r.ID })
		}},
	{wire.Products,
		func(e *env, n int) []api.ID {
			recs := make([]api.ProductWrite, n)
			for i := range recs {
				recs[i] = api.ProductWrite{Name: api.String(fmt.Sprint("P", i)), Links: &api.ProductLinks{Variants: []api.VariantWrite{{}}}}
			}
			return applied(e.t)(e.c.Products.Write(e.t.Context(), recs))
		},
		func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error) {
			return listIDs(c.Products.List(ctx, o), func(r *api.Product) api.ID { return r.ID })
		}},
	{wire.Variants,
		func(e *env, n int) []api.ID {
			recs := make([]api.VariantWrite, n)
			p := e.createProduct(api.ProductWrite{Name: api.String("V"), Links: &api.ProductLinks{
				Attributes: []api.AttributeRef{{Name: "N"}}, Variants: []api.VariantWrite{{Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: "first"}}}}}}})
			_, page := e.product(p)
			applied(e.t)(e.c.Variants.Delete(e.t.Context(), page.Records[0].Links.First(wire.Variants)))
			for i := range recs {
				recs[i] = api.VariantWrite{SKU: api.String(fmt.Sprint("SKU-", i)), Links: &api.VariantLinks{Products: api.Refs(p),
					AttributeOptions: []api.OptionRef{{Value: fmt.Sprint(i), Attribute: "N"}}}}
			}
			return applied(e.t)(e.c.Variants.Write(e.t.Context(), recs))
		},
		func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error) {
			return listIDs(c.Variants.List(ctx, o), func(r *api.Variant) api.ID { return r.ID })
		}},
	{wire.ProductFiles,
		func(e *env, n int) []api.ID {
			p := e.createProduct(shirt("F"))
			var out []api.ID
			for i := 0; i < n; i++ {
				out = append(out, applied(e.t)(e.c.ProductFiles.Upload(e.t.Context(), p, fmt.Sprint("f", i, ".txt"), strings.NewReader("x")))...)
			}
			return out
		},
		func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error) {
			return listIDs(c.ProductFiles.List(ctx, o), func(r *api.ProductFile) api.ID { return r.ID })
		}},
	{wire.ProductTags,
		func(e *env, n int) []api.ID {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprint("tag", i)
			}
			return applied(e.t)(e.c.ProductTags.Create(e.t.Context(), names...))
		},
		func(ctx context.Context, c *api.Client, o *api.ListOptions) ([]api.ID, error) {
			return listIDs(c.ProductTags.List(ctx, o), func(r *api.ProductTag) api.ID { return r.ID })
		}},
}

// TestListings reads every v2 listing through the client: paged two records
// at a time to the last page, sorted by id descending, and filtered by id,
// at the root and under /api2.
func TestListings(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		for _, l := range listings {
			t.Run(l.resource+prefix, func(t *testing.T) {
				e := newEnv(t, sandboxOpts(), prefix)
				created := l.create(e, 5)
				before := e.srv.Counters().Requests[wire.ListPath(l.resource)]

				got, err := l.list(t.Context(), e.c, &api.ListOptions{PageSize: 2, Sort: []api.Sort{{Attr: "id", Desc: true}}})
				if err != nil {
					t.Fatal(err)
				}
				want := slices.Clone(created)
				slices.SortFunc(want, func(a, b api.ID) int { return -cmpID(a, b) })
				if !slices.Equal(got, want) {
					t.Errorf("listed %v, want %v", got, want)
				}
				if n := e.srv.Counters().Requests[wire.ListPath(l.resource)] - before; n != 3 {
					t.Errorf("%d listing requests for 5 records 2 per page, want 3", n)
				}

				got, err = l.list(t.Context(), e.c, &api.ListOptions{Filter: api.And(api.Where("id", ">=", string(created[3])))})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, created[3:]) {
					t.Errorf("filtered id >= %s: %v, want %v", created[3], got, created[3:])
				}
			})
		}
	}
}

// cmpID orders ids numerically.
func cmpID(a, b api.ID) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(string(a), string(b))
}

// TestVariantListingFilter selects variants with both conditionals: (all of
// and) AND (any of or), as the wire defines them.
func TestVariantListingFilter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, sandboxOpts(), wire.APIPrefix)
	e.createProduct(shirt("A"))
	e.createProduct(shirt("B"))
	f := api.And(api.Where("stock", ">", 5), api.Or(api.Where("sku", "", "A-RED-S"), api.Where("sku", "", "A-BLUE-M"), api.Where("sku", "", "B-BLUE-M")))
	var got []string
	for _, v := range collect(t, e.c.Variants.List(t.Context(), &api.ListOptions{Filter: f})) {
		got = append(got, v.SKU.String())
	}
	if !slices.Equal(got, []string{"A-RED-S"}) {
		t.Errorf("stock > 5 and sku in (A-RED-S, A-BLUE-M, B-BLUE-M): %v, want [A-RED-S]", got)
	}
	bySKU, err := e.c.Variants.BySKU(t.Context(), []string{"B-RED-S", "A-BLUE-M", "NOPE"})
	if err != nil {
		t.Fatal(err)
	}
	if len(bySKU) != 2 || bySKU["B-RED-S"] == nil || bySKU["A-BLUE-M"] == nil {
		t.Errorf("BySKU found %v, want B-RED-S and A-BLUE-M", bySKU)
	}
}
