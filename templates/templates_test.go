package templates

import (
	"slices"
	"strings"
	"testing"
)

func TestListAndGet(t *testing.T) {
	t.Parallel()
	list := List()
	var names []string
	for _, in := range list {
		names = append(names, in.Name)
	}
	for _, want := range []string{"shopify", "woocommerce", "generic", "stock", "shipments", "slips", "catalog", "shipstream"} {
		if !slices.Contains(names, want) {
			t.Errorf("no template %s among %q", want, names)
		}
	}
	for _, in := range list {
		text, err := Get(in.Name)
		if err != nil {
			t.Fatal(err)
		}
		prefix := "# lading mapping"
		if in.Kind == KindReport {
			prefix = "# lading report"
		}
		if in.Description == "" || !strings.HasPrefix(string(text), prefix) {
			t.Errorf("%s: description %q, text starts %q", in.Name, in.Description, string(text[:20]))
		}
		if !slices.Contains([]string{KindCatalog, KindStock, KindShipments, KindSlips, KindReport}, in.Kind) {
			t.Errorf("%s: kind %q", in.Name, in.Kind)
		}
	}
	if _, err := Get("Shopify.yaml"); err != nil {
		t.Errorf("Get is lenient about case and extension: %v", err)
	}
	_, err := Get("magneto")
	if err == nil || err.Error() != `no template "magneto"; did you mean magento2?` {
		t.Errorf("error %v", err)
	}
	_, err = Get("frobnicate")
	if err == nil || err.Error() != `no template "frobnicate"; templates: `+strings.Join(names, ", ") {
		t.Errorf("error %v", err)
	}
	if got := Names(KindStock); !slices.Equal(got, []string{"stock", "shopify-inventory", "amazon-fba"}) {
		t.Errorf("Names(KindStock) = %q", got)
	}
	list[0].Name = "changed"
	if List()[0].Name != "shopify" {
		t.Error("List returns shared state")
	}
}
