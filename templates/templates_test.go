package templates

import (
	"strings"
	"testing"
)

func TestListAndGet(t *testing.T) {
	list := List()
	if len(list) != 16 {
		t.Fatalf("List() = %v", list)
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
		if in.Kind != KindCatalog && in.Kind != KindStock && in.Kind != KindReport {
			t.Errorf("%s: kind %q", in.Name, in.Kind)
		}
	}
	if _, err := Get("Shopify.yaml"); err != nil {
		t.Errorf("Get is lenient about case and extension: %v", err)
	}
	_, err := Get("magento")
	if err == nil || !strings.Contains(err.Error(), `no template "magento"; templates: shopify, shopify-2024, bigcommerce, squarespace, woocommerce, magento2, generic, stock, shopify-inventory, amazon-fba, shipments, slips, catalog, accounting-slips, picking, shipstream`) {
		t.Errorf("error %v", err)
	}
	list[0].Name = "changed"
	if List()[0].Name != "shopify" {
		t.Error("List returns shared state")
	}
}
