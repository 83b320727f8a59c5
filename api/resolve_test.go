package api

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// A record sent without links to its related records is still resolved
// through the related records that link back to it.
func TestResolveFollowsLinksBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, variantLinks, productLinks string
	}{
		{"forward links", `{"AttributeOptions":[{"id":"5"}],"VariantPrices":[{"id":"7"}],"Products":[{"id":"1"}]}`, `{"ProductTags":[{"id":"9"}]}`},
		{"links back only", `{"Products":[{"id":"1"}]}`, `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"meta":{"current_page":"1","last_page":"1","per_page":"15","total":"1","from":"1","to":"1"},
			"Variants":[{"id":"2","sku":"A","links":` + tc.variantLinks + `}],
			"Products":{"1":{"id":"1","name":"Shirt","links":` + tc.productLinks + `}},
			"Attributes":{"4":{"id":"4","name":"Size","order":"0","links":{"AttributeOptions":[{"id":"5"}]}}},
			"AttributeOptions":{"5":{"id":"5","name":"M","links":{"Attributes":[{"id":"4"}],"Variants":[{"id":"2"}]}}},
			"PricingTiers":{"6":{"id":"6","name":"Retail"}},
			"VariantPrices":{"7":{"id":"7","price":"19.50","links":{"PricingTiers":[{"id":"6"}],"Variants":[{"id":"2"}]}}},
			"ProductTags":{"9":{"id":"9","name":"summer","links":{"Products":[{"id":"1"}]}}}}`
			var pg VariantPage
			if err := json.Unmarshal([]byte(body), &pg); err != nil {
				t.Fatal(err)
			}
			v := pg.Records[0]
			opts := pg.Sideloads.Options(v)
			if len(opts) != 1 || opts[0].Attribute != "Size" || opts[0].Value != "M" {
				t.Errorf("Options = %+v, want Size=M", opts)
			}
			if p := pg.Sideloads.Prices(v); p["Retail"] != "19.50" {
				t.Errorf("Prices = %v, want Retail 19.50", p)
			}
			if tags := pg.Sideloads.Tags(pg.Sideloads.Product(v)); strings.Join(tags, ",") != "summer" {
				t.Errorf("Tags = %v, want summer", tags)
			}
		})
	}
}

// AppendPrices gives a variant's prices in its links' order, one a tier:
// the last the answer gives, as Prices keeps; a tier not sideloaded by its
// id; a price without a tier, or not sideloaded, not at all.
func TestAppendPrices(t *testing.T) {
	t.Parallel()
	body := `{"Variants":[{"id":"2","links":{"VariantPrices":[{"id":"7"},{"id":"8"},{"id":"9"},{"id":"10"},{"id":"11"},{"id":"12"}]}}],
	"PricingTiers":{"6":{"id":"6","name":"Retail"},"5":{"id":"5","name":"Wholesale"}},
	"VariantPrices":{"7":{"id":"7","price":"19.50","links":{"PricingTiers":[{"id":"6"}]}},
		"8":{"id":"8","price":"9","links":{"PricingTiers":[{"id":"5"}]}},
		"9":{"id":"9","price":"18","links":{"PricingTiers":[{"id":"6"}]}},
		"10":{"id":"10","price":"3","links":{"PricingTiers":[{"id":"44"}]}},
		"11":{"id":"11","price":"4"}}}`
	var pg VariantPage
	if err := json.Unmarshal([]byte(body), &pg); err != nil {
		t.Fatal(err)
	}
	v := pg.Records[0]
	kept := []TierPrice{{"kept", "1"}}
	got := pg.AppendPrices(kept, v)
	want := []TierPrice{{"kept", "1"}, {"Retail", "18"}, {"Wholesale", "9"}, {"44", "3"}}
	if !slices.Equal(got, want) {
		t.Errorf("AppendPrices = %v, want %v", got, want)
	}
	if m := pg.Prices(v); !maps.Equal(m, map[string]Flex{"Retail": "18", "Wholesale": "9", "44": "3"}) {
		t.Errorf("Prices = %v", m)
	}
}

// AppendOptions sorts what it appends by attribute order, then name, and
// leaves what dst held before alone.
func TestAppendOptions(t *testing.T) {
	t.Parallel()
	body := `{"Variants":[{"id":"2","links":{"AttributeOptions":[{"id":"7"},{"id":"8"},{"id":"9"},{"id":"10"}]}}],
	"Attributes":{"4":{"id":"4","name":"Size","order":"1"},"5":{"id":"5","name":"Color","order":"0"},"6":{"id":"6","name":"Fit","order":"1"}},
	"AttributeOptions":{"7":{"id":"7","name":"M","links":{"Attributes":[{"id":"4"}]}},
		"8":{"id":"8","name":"Red","links":{"Attributes":[{"id":"5"}]}},
		"9":{"id":"9","name":"Slim","links":{"Attributes":[{"id":"6"}]}}}}`
	var pg VariantPage
	if err := json.Unmarshal([]byte(body), &pg); err != nil {
		t.Fatal(err)
	}
	v := pg.Records[0]
	var got []string
	for _, o := range pg.AppendOptions([]OptionValue{{Attribute: "Z", Value: "kept", Order: 9}}, v) {
		got = append(got, o.Attribute+"="+o.Value)
	}
	if want := []string{"Z=kept", "Color=Red", "Fit=Slim", "Size=M"}; !slices.Equal(got, want) {
		t.Errorf("AppendOptions = %v, want %v", got, want)
	}
	if n := len(pg.Options(v)); n != 3 {
		t.Errorf("Options gives %d options, want 3 (option 10 is not sideloaded)", n)
	}
}
