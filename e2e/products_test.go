package e2e

import (
	"slices"
	"testing"

	"lading/api"
)

// TestProductWrites round-trips every product write over HTTP, at the root
// and under /api2, reading each effect back through the client.
func TestProductWrites(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		t.Run("base"+prefix, func(t *testing.T) { productWrites(t, prefix) })
	}
}

func productWrites(t *testing.T, prefix string) {
	t.Run("create without variants", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		id := e.createProduct(api.ProductWrite{Name: api.String("Mug"), Description: api.String("white"),
			Links: &api.ProductLinks{Variants: []api.VariantWrite{{}}}})
		p, page := e.product(id)
		if p.Name != "Mug" || p.Description != "white" {
			t.Errorf("read back name %q description %q", p.Name, p.Description)
		}
		vs := page.VariantsOf(p)
		if len(vs) != 1 {
			t.Fatalf("%d variants, want one attributeless variant", len(vs))
		}
		if o := page.Options(vs[0]); len(o) != 0 {
			t.Errorf("the variant has options %v, want none", o)
		}
	})

	t.Run("create with variants attributes options and tiers", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		id := e.createProduct(shirt("TEE"))
		p, page := e.product(id)
		vs := page.VariantsOf(p)
		if len(vs) != 2 {
			t.Fatalf("%d variants, want 2", len(vs))
		}
		want := []struct{ sku, opts, stock, cost string }{
			{"TEE-RED-S", "Color=Red,Size=S", "7", "3.50"},
			{"TEE-BLUE-M", "Color=Blue,Size=M", "2", "4.00"},
		}
		for i, w := range want {
			v := vs[i]
			if v.SKU.String() != w.sku || optionsText(&page.Sideloads, v) != w.opts {
				t.Errorf("variant %d: sku %q options %q, want %q %q", i, v.SKU, optionsText(&page.Sideloads, v), w.sku, w.opts)
			}
			if n, _ := v.Stock.Float(); n != mustFloat(t, w.stock) {
				t.Errorf("variant %s: stock %q, want %s", v.SKU, v.Stock, w.stock)
			}
			if c, _ := v.Cost.Float(); c != mustFloat(t, w.cost) {
				t.Errorf("variant %s: cost %q, want %s", v.SKU, v.Cost, w.cost)
			}
			if pr, _ := page.Prices(v)["Retail"].Float(); pr != 9.99 {
				t.Errorf("variant %s: prices %v, want Retail 9.99", v.SKU, page.Prices(v))
			}
		}
	})

	t.Run("create with a pricing tier by id", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		_, page := e.product(e.createProduct(shirt("TEE")))
		retail := tierID(t, &page.Sideloads, "Retail")
		id := e.createProduct(api.ProductWrite{Name: api.String("Cap"), Links: &api.ProductLinks{
			Variants:     []api.VariantWrite{{SKU: api.String("CAP")}},
			PricingTiers: []api.TierValue{{ID: retail, Value: "5.25"}},
		}})
		p, page := e.product(id)
		v := page.VariantsOf(p)[0]
		if pr, _ := page.Prices(v)["Retail"].Float(); pr != 5.25 {
			t.Errorf("prices %v, want Retail 5.25 in the existing tier", page.Prices(v))
		}
		if got := tierID(t, &page.Sideloads, "Retail"); got != retail {
			t.Errorf("tier id %s, want the existing %s (no new tier)", got, retail)
		}
	})

	t.Run("edit", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		id := e.createProduct(shirt("TEE"))
		applied(t)(e.c.Products.Write(t.Context(), []api.ProductWrite{{ID: id, Name: api.String("Tee v2"), Notes: api.String("cotton")}}))
		p, _ := e.product(id)
		if p.Name != "Tee v2" || p.Notes != "cotton" || p.Description != "a shirt" {
			t.Errorf("read back name %q notes %q description %q", p.Name, p.Notes, p.Description)
		}
	})

	t.Run("archive", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		a, b := e.createProduct(shirt("A")), e.createProduct(shirt("B"))
		applied(t)(e.c.Products.Archive(t.Context(), a))
		if p, _ := e.product(a); !p.Archived.Bool() {
			t.Errorf("archived %q after archive", p.Archived)
		}
		if got := e.productIDs(api.And(api.Where("archived", "", "0"))); !slices.Equal(got, []api.ID{b}) {
			t.Errorf("active products %v, want [%s]", got, b)
		}
	})

	t.Run("bulk archive", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		a, b, c := e.createProduct(shirt("A")), e.createProduct(shirt("B")), e.createProduct(shirt("C"))
		res, err := e.c.Products.BulkArchive(t.Context(), []api.ID{a, c})
		writeIDs(t, res, err)
		got := e.productIDs(api.And(api.Where("archived", "", true)))
		slices.Sort(got)
		want := []api.ID{a, c}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("archived products %v, want %v", got, want)
		}
		if p, _ := e.product(b); p.Archived.Bool() {
			t.Errorf("product %s not in the bulk action was archived", b)
		}
	})

	t.Run("tag by id", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		id := e.createProduct(shirt("TEE"))
		tag := applied(t)(e.c.ProductTags.Create(t.Context(), "summer"))[0]
		applied(t)(e.c.Products.Tag(t.Context(), id, api.TagRef{ID: tag}))
		if p, page := e.product(id); !slices.Equal(page.Tags(p), []string{"summer"}) || !p.Links.Has("ProductTags", tag) {
			t.Errorf("tags %v links %v, want summer (%s)", page.Tags(p), p.Links.Of("ProductTags"), tag)
		}
	})

	t.Run("tag by name creates the tag", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		id := e.createProduct(shirt("TEE"))
		applied(t)(e.c.Products.Tag(t.Context(), id, api.TagRef{Name: "new-in"}))
		if p, page := e.product(id); !slices.Equal(page.Tags(p), []string{"new-in"}) {
			t.Errorf("tags %v, want [new-in]", page.Tags(p))
		}
		if names := e.tagNames(); !slices.Contains(names, "new-in") {
			t.Errorf("tag listing %v lacks the created tag", names)
		}
	})

	t.Run("bulk tag", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		a, b, c := e.createProduct(shirt("A")), e.createProduct(shirt("B")), e.createProduct(shirt("C"))
		tag := applied(t)(e.c.ProductTags.Create(t.Context(), "sale"))[0]
		applied(t)(e.c.Products.BulkTag(t.Context(), []api.ID{a, b}, []api.ID{tag}))
		for _, x := range []struct {
			id   api.ID
			want []string
		}{{a, []string{"sale"}}, {b, []string{"sale"}}, {c, nil}} {
			p, page := e.product(x.id)
			if got := page.Tags(p); !slices.Equal(got, x.want) {
				t.Errorf("product %s tags %v, want %v", x.id, got, x.want)
			}
		}
	})

	t.Run("delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		a, b := e.createProduct(shirt("A")), e.createProduct(shirt("B"))
		applied(t)(e.c.Products.Delete(t.Context(), a))
		if got := e.productIDs(nil); !slices.Equal(got, []api.ID{b}) {
			t.Errorf("products after delete %v, want [%s]", got, b)
		}
		page, err := e.c.Products.Get(t.Context(), a)
		if err == nil && len(page.Records) == 1 && !page.Records[0].Deleted.Bool() {
			t.Errorf("the deleted product %s reads back live", a)
		}
	})
}

// tagNames lists every product tag's name.
func (e *env) tagNames() []string {
	e.t.Helper()
	var out []string
	for _, tag := range collect(e.t, e.c.ProductTags.List(e.t.Context(), &api.ListOptions{PageSize: 2})) {
		out = append(out, tag.Name.String())
	}
	return out
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := api.Flex(s).Float()
	if err != nil {
		t.Fatal(err)
	}
	return f
}
