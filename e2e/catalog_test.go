package e2e

import (
	"testing"

	"lading/api"
)

// shirt is a product create with two attributes, two variants, their
// options, opening stock, cost and a pricing tier given by name (created).
func shirt(name string) api.ProductWrite {
	opt := func(vals ...string) *api.VariantLinks {
		l := &api.VariantLinks{}
		for _, v := range vals {
			l.AttributeOptions = append(l.AttributeOptions, api.OptionRef{Value: v})
		}
		return l
	}
	return api.ProductWrite{
		Name:        api.String(name),
		Description: api.String("a shirt"),
		Links: &api.ProductLinks{
			Attributes: []api.AttributeRef{{Name: "Color", Order: 1}, {Name: "Size", Order: 2}},
			Variants: []api.VariantWrite{
				{SKU: api.String(name + "-RED-S"), Quantity: api.String("7"), Cost: api.String("3.50"), Links: opt("Red", "S")},
				{SKU: api.String(name + "-BLUE-M"), Quantity: api.String("2"), Cost: api.String("4.00"), Links: opt("Blue", "M")},
			},
			PricingTiers: []api.TierValue{{Name: "Retail", Value: "9.99"}},
		},
	}
}

// createProduct writes one product and returns its id.
func (e *env) createProduct(p api.ProductWrite) api.ID {
	e.t.Helper()
	res, err := e.c.Products.Write(e.t.Context(), []api.ProductWrite{p})
	return writeIDs(e.t, res, err)[0]
}

// product reads one product by id with its sideloads.
func (e *env) product(id api.ID) (*api.Product, *api.ProductPage) {
	e.t.Helper()
	page, err := e.c.Products.Get(e.t.Context(), id)
	if err != nil {
		e.t.Fatalf("reading product %s: %v", id, err)
	}
	if len(page.Records) != 1 || page.Records[0].ID != id {
		e.t.Fatalf("reading product %s: got %d products", id, len(page.Records))
	}
	return page.Records[0], page
}

// variant reads one variant by id with its sideloads.
func (e *env) variant(id api.ID) (*api.Variant, *api.VariantPage) {
	e.t.Helper()
	page, err := e.c.Variants.Get(e.t.Context(), id)
	if err != nil {
		e.t.Fatalf("reading variant %s: %v", id, err)
	}
	if len(page.Records) != 1 || page.Records[0].ID != id {
		e.t.Fatalf("reading variant %s: got %d variants", id, len(page.Records))
	}
	return page.Records[0], page
}

// optionsText renders a variant's attribute/option pairs as "Color=Red,Size=S".
func optionsText(s *api.Sideloads, v *api.Variant) string {
	var out string
	for i, o := range s.Options(v) {
		if i > 0 {
			out += ","
		}
		out += o.Attribute + "=" + o.Value
	}
	return out
}

// tierID returns the id of the sideloaded pricing tier named name.
func tierID(t *testing.T, s *api.Sideloads, name string) api.ID {
	t.Helper()
	for id, tier := range s.PricingTiers {
		if tier.Name.String() == name {
			return id
		}
	}
	t.Fatalf("no pricing tier %q sideloaded (have %d)", name, len(s.PricingTiers))
	return ""
}

// productIDs lists the ids of the products a filter selects.
func (e *env) productIDs(f *api.Filter) []api.ID {
	e.t.Helper()
	var out []api.ID
	for _, p := range collect(e.t, e.c.Products.List(e.t.Context(), &api.ListOptions{Filter: f, PageSize: 2})) {
		out = append(out, p.ID)
	}
	return out
}
