package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// variantPage250 builds a Variants answer of 250 variants shaped like the
// recorded one, each with its product, option, price and stock level.
func variantPage250() []byte {
	var vs, ps, os, vp, wl []string
	for i := range 250 {
		id := 229617792 + i
		vs = append(vs, fmt.Sprintf(`{"auto_description":"Filament %d (Black)","available":"95","average_cost":"0.0000","bundle":"0","committed_stock":"5","component":"0","consignment":null,"created_at":"2016-02-08T23:42:41+00:00","deleted":"0","description":"","id":"%d","links":{"AttributeOptions":[{"id":"%d"}],"Contacts":[{"id":"2430370","product_sku_id":"%d","cost":null,"quantity":"0"}],"Products":[{"id":"%d"}],"VariantPrices":[{"id":"%d"}],"WarehouseStockLevels":[{"id":"%d"}]},"local_id":"3767","location_1":"","low_stock_alert":null,"notes":"","sku":"SKU-%d","sort_order":"0","stock":"100","supplier_cost":"0.0000","supplier_id":"","upc":null,"updated_at":"2016-02-16T16:40:09+00:00","weight":"3.1504"}`,
			i, id, 300000000+i, id, 114390204+i, 242255130+i, 130542830+i, i))
		ps = append(ps, fmt.Sprintf(`"%d":{"archived":"0","id":"%d","links":{"Variants":[{"id":"%d"}]},"name":"Filament %d","notes":""}`, 114390204+i, 114390204+i, id, i))
		os = append(os, fmt.Sprintf(`"%d":{"id":"%d","links":{"Attributes":[{"id":"86943484"}]},"name":"Black"}`, 300000000+i, 300000000+i))
		vp = append(vp, fmt.Sprintf(`"%d":{"id":"%d","links":{"PricingTiers":[{"id":"1376436"}]},"price":"39.99"}`, 242255130+i, 242255130+i))
		wl = append(wl, fmt.Sprintf(`"%d":{"account_address_id":"74142","available":"95","id":"%d","links":{"AccountAddresses":[{"id":"74142","type":"account_address"}]},"stock":"100"}`, 130542830+i, 130542830+i))
	}
	return []byte(`{"meta":{"current_page":"1","last_page":"4","per_page":"250","total":"1000","from":"1","to":"250"},"Variants":[` + strings.Join(vs, ",") +
		`],"Products":{` + strings.Join(ps, ",") + `},"AttributeOptions":{` + strings.Join(os, ",") +
		`},"Attributes":{"86943484":{"id":"86943484","name":"Color","order":"0"}},"PricingTiers":{"1376436":{"id":"1376436","name":"Shopify"}},"VariantPrices":{` + strings.Join(vp, ",") +
		`},"WarehouseStockLevels":{` + strings.Join(wl, ",") + `}}`)
}

// BenchmarkDecodeVariantPage250 decodes the page through encoding/json.
func BenchmarkDecodeVariantPage250(b *testing.B) {
	benchVariantPage(b, func(body []byte, p *VariantPage) error { return json.Unmarshal(body, p) })
}

// BenchmarkReadVariantPage250 reads the page as a listing does, straight
// from the answer's body (no encoding/json around it).
func BenchmarkReadVariantPage250(b *testing.B) {
	benchVariantPage(b, func(body []byte, p *VariantPage) error { return p.readFrom(bytes.NewReader(body)) })
}

func benchVariantPage(b *testing.B, decode func([]byte, *VariantPage) error) {
	body := variantPage250()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var p VariantPage
		if err := decode(body, &p); err != nil {
			b.Fatal(err)
		}
		if len(p.Records) != 250 || len(p.WarehouseStockLevels) != 250 {
			b.Fatal("short page")
		}
	}
}

func TestVariantPage250Decodes(t *testing.T) {
	t.Parallel()
	var p VariantPage
	if err := json.Unmarshal(variantPage250(), &p); err != nil {
		t.Fatal(err)
	}
	v := p.Records[249]
	if opts := p.Options(v); len(opts) != 1 || opts[0].Attribute != "Color" {
		t.Errorf("options = %+v", opts)
	}
	if pr := p.Prices(v); pr["Shopify"] != "39.99" {
		t.Errorf("prices = %v", pr)
	}
}
