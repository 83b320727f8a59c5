package sandbox

import (
	"maps"
	"strings"
	"testing"

	"lading/api/wire"
)

// A variant's option records that are wrong are refused with the field
// and message of where they sit in the write: in a Variants write, and
// as a product write's links.Variants.
func TestOptionRecordErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	pid := e.mustIDs(wire.Products, map[string]any{"name": "Tee", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size"}},
		"Variants": []any{map[string]any{"sku": "TEE-S", "links": map[string]any{
			"AttributeOptions": []any{map[string]any{"value": "S"}}}}}}})[0]
	sized := func(v string) any { return map[string]any{"value": v} }
	for _, c := range []struct {
		name         string
		opts         []any
		field, again string // the field in a Variants write; its message
	}{
		{"no value", []any{sized("M"), map[string]any{"order": 1}},
			"links.AttributeOptions[1].value", `links.AttributeOptions[1].value is required: the option of the attribute, e.g. "Black"`},
		{"a value not text", []any{map[string]any{"value": []any{"M"}}},
			"links.AttributeOptions[0].value", "links.AttributeOptions[0].value must be a string or a number, not an array"},
		{"an order not whole", []any{map[string]any{"value": "M", "order": "1.5"}},
			"links.AttributeOptions[0].order", `links.AttributeOptions[0].order must be a whole number, got "1.5"`},
		{"links not an object", []any{map[string]any{"value": "M", "links": "Size"}},
			"links.AttributeOptions[0].links", "links.AttributeOptions[0].links must be an object of arrays, not string"},
		{"a link not an object", []any{map[string]any{"value": "M", "links": map[string]any{"Attributes": []any{"Size"}}}},
			"links.AttributeOptions[0].links.Attributes[0]", "links.AttributeOptions[0].links.Attributes[0] must be an object, not string"},
		{"an attribute without a name", []any{map[string]any{"value": "M", "links": map[string]any{"Attributes": []any{map[string]any{"name": ""}}}}},
			"links.AttributeOptions[0].links.Attributes[0].name", "links.AttributeOptions[0].links.Attributes[0].name is required"},
		{"no attribute left", []any{sized("M"), sized("Red")},
			"links.AttributeOptions[1].links.Attributes", `links.AttributeOptions[1] names no attribute and the product has only 1 attribute: add links.Attributes [{"name": ...}]`},
		{"two options of one attribute", []any{sized("M"), map[string]any{"value": "L", "links": map[string]any{"Attributes": []any{map[string]any{"name": "Size"}}}}},
			"links.AttributeOptions[1].value", `links.AttributeOptions[1] gives attribute "Size" a second option ("L" after "M"); a variant has one option per attribute`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.variantRefused(t, pid, map[string]any{"AttributeOptions": c.opts}, c.field, c.again)
		})
	}
}

// A variant's price records that are wrong are refused the same way.
func TestTierRecordErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	pid := e.mustIDs(wire.Products, map[string]any{"name": "Cap", "links": map[string]any{
		"Attributes": []any{map[string]any{"name": "Size"}},
		"Variants": []any{map[string]any{"sku": "CAP-S", "links": map[string]any{
			"AttributeOptions": []any{map[string]any{"value": "S"}}}}}}})[0]
	medium := []any{map[string]any{"value": "M"}}
	for _, c := range []struct {
		name         string
		tiers        []any
		field, again string
	}{
		{"no value", []any{map[string]any{"name": "Retail", "value": "5"}, map[string]any{"name": "Sale"}},
			"links.PricingTiers[1].value", "links.PricingTiers[1].value is required: the price in this tier"},
		{"a value not a number", []any{map[string]any{"name": "Retail", "value": "five"}},
			"links.PricingTiers[0].value", `links.PricingTiers[0].value must be a number, got "five"`},
		{"a price not a number", []any{map[string]any{"name": "Retail", "price": "five"}},
			"links.PricingTiers[0].price", `links.PricingTiers[0].price must be a number, got "five"`},
		{"an id not a number", []any{map[string]any{"id": "x", "value": "5"}},
			"links.PricingTiers[0].id", `links.PricingTiers[0].id must be a positive whole number, got "x"`},
		{"an id of no tier", []any{map[string]any{"id": 42, "value": "5"}},
			"links.PricingTiers[0].id", "links.PricingTiers[0].id: no pricing tier 42 in this account; give a name to create one"},
		{"a name not text", []any{map[string]any{"name": map[string]any{}, "value": "5"}},
			"links.PricingTiers[0].name", "links.PricingTiers[0].name must be a string or a number, not an object"},
		{"neither id nor name", []any{map[string]any{"name": " ", "value": "5"}},
			"links.PricingTiers[0].name", "links.PricingTiers[0] needs an id or a name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.variantRefused(t, pid, map[string]any{"AttributeOptions": medium, "PricingTiers": c.tiers}, c.field, c.again)
			e.refused(t, "a product's own prices", wire.Products,
				map[string]any{"id": pid, "links": map[string]any{"PricingTiers": c.tiers}}, c.field, c.again)
		})
	}
}

// variantRefused checks that a new variant of product pid with links is
// refused with field and message in a Variants write, and as a product
// write's links.Variants[0] with that path before both.
func (e *env) variantRefused(t *testing.T, pid string, links map[string]any, field, message string) {
	t.Helper()
	alone := maps.Clone(links)
	alone[wire.Products] = []any{map[string]any{"id": pid}}
	e.refused(t, "a Variants write", wire.Variants, map[string]any{"sku": "NEW-1", "links": alone}, field, message)
	const at = "links.Variants[0]."
	e.refused(t, "a product write", wire.Products, map[string]any{"id": pid, "links": map[string]any{
		wire.Variants: []any{map[string]any{"sku": "NEW-2", "links": links}}}}, at+field, at+message)
}

// refused checks that a write of rec to resource is refused, its record
// with field and message.
func (e *env) refused(t *testing.T, what, resource string, rec map[string]any, field, message string) {
	t.Helper()
	r := e.write(resource, rec).expect(t, 400)
	if er := r.recordError(resource, 0); er == nil || er["field"] != field || er["message"] != message {
		t.Errorf("%s: %v, want field %q, message %q", what, er, field, message)
	}
}

// A variant that repeats another's options is told so, in a Variants
// write as in a product write.
func TestRepeatedCombinationMessage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	pid := e.mustIDs(wire.Products, map[string]any{"name": "Sock", "links": map[string]any{
		"Variants": []any{map[string]any{"sku": "SOCK-1"}}}})[0]
	alone := e.write(wire.Variants, map[string]any{"sku": "SOCK-2", "links": map[string]any{
		"Products": []any{map[string]any{"id": pid}}}}).expect(t, 400)
	er := alone.recordError(wire.Variants, 0)
	if want := "the variant repeats the attribute options of variant "; er == nil || !strings.HasPrefix(er["message"].(string), want) {
		t.Errorf("a Variants write: %v, want a message beginning %q", er, want)
	}
	inProduct := e.write(wire.Products, map[string]any{"id": pid, "links": map[string]any{"Variants": []any{
		map[string]any{"sku": "SOCK-2"}}}}).expect(t, 400)
	er = inProduct.recordError(wire.Products, 0)
	if want := "links.Variants[0] repeats the attribute options of variant "; er == nil || !strings.HasPrefix(er["message"].(string), want) {
		t.Errorf("a product write: %v, want a message beginning %q", er, want)
	}
}
