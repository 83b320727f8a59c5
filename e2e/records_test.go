package e2e

import (
	"bytes"
	"slices"
	"strconv"
	"testing"

	"lading/api"
	"lading/sandbox"
)

// TestRecordWrites round-trips variant, stock, file, tag, packing slip and
// shipment writes over HTTP, at the root and under /api2, reading each
// effect back through the client.
func TestRecordWrites(t *testing.T) {
	t.Parallel()
	for _, prefix := range prefixes {
		t.Run("base"+prefix, func(t *testing.T) { recordWrites(t, prefix) })
	}
}

func recordWrites(t *testing.T, prefix string) {
	t.Run("variant create", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		p := e.createProduct(shirt("TEE"))
		id := applied(t)(e.c.Variants.Write(t.Context(), []api.VariantWrite{{Weight: api.String("1.5"),
			Links: &api.VariantLinks{Products: api.Refs(p)}}}))[0]
		v, _ := e.variant(id)
		if w, _ := v.Weight.Float(); w != 1.5 || v.ProductID() != p {
			t.Errorf("weight %q product %s, want 1.5 and %s", v.Weight, v.ProductID(), p)
		}
		if prod, page := e.product(p); len(page.VariantsOf(prod)) != 3 {
			t.Errorf("product has %d variants, want 3", len(page.VariantsOf(prod)))
		}
	})

	t.Run("variant create with a new attribute and option", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		p := e.createProduct(shirt("TEE"))
		id := applied(t)(e.c.Variants.Write(t.Context(), []api.VariantWrite{{SKU: api.String("TEE-GREEN-XL"),
			Links: &api.VariantLinks{Products: api.Refs(p), AttributeOptions: []api.OptionRef{
				{Value: "Green", Attribute: "Color"}, {Value: "XL", Attribute: "Size"}, {Value: "Linen", Attribute: "Fabric"}}}}}))[0]
		v, page := e.variant(id)
		if got, want := optionsText(&page.Sideloads, v), "Color=Green,Size=XL,Fabric=Linen"; got != want {
			t.Errorf("options %q, want %q", got, want)
		}
	})

	t.Run("variant edit", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		_, page := e.product(e.createProduct(shirt("TEE")))
		id := page.Records[0].Links.First("Variants")
		applied(t)(e.c.Variants.Write(t.Context(), []api.VariantWrite{{ID: id, SKU: api.String("TEE-1"), Weight: api.String("0.25"),
			Links: &api.VariantLinks{PricingTiers: []api.TierValue{{Name: "Retail", Value: "12.00"}}}}}))
		v, vp := e.variant(id)
		if w, _ := v.Weight.Float(); v.SKU != "TEE-1" || w != 0.25 {
			t.Errorf("sku %q weight %q, want TEE-1 0.25", v.SKU, v.Weight)
		}
		if pr, _ := vp.Prices(v)["Retail"].Float(); pr != 12 {
			t.Errorf("prices %v, want Retail 12", vp.Prices(v))
		}
		if got := optionsText(&vp.Sideloads, v); got != "Color=Red,Size=S" {
			t.Errorf("options %q changed by an edit", got)
		}
	})

	t.Run("variant delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		_, page := e.product(e.createProduct(shirt("TEE")))
		vids := page.Records[0].Links.IDs("Variants")
		applied(t)(e.c.Variants.Delete(t.Context(), vids[0]))
		var left []api.ID
		for _, v := range collect(t, e.c.Variants.List(t.Context(), nil)) {
			left = append(left, v.ID)
		}
		if !slices.Equal(left, vids[1:]) {
			t.Errorf("variants after delete %v, want %v", left, vids[1:])
		}
	})

	t.Run("stock set_available", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		_, page := e.product(e.createProduct(shirt("TEE")))
		vids := page.Records[0].Links.IDs("Variants")
		wh := api.ID(e.acct.WarehouseID)
		applied(t)(e.c.Stock.SetAvailable(t.Context(), []api.StockLevel{{VariantID: vids[0], WarehouseID: wh, Units: 42}, {VariantID: vids[1], WarehouseID: wh, Units: 0}}))
		for i, want := range []float64{42, 0} {
			v, vp := e.variant(vids[i])
			if n, _ := v.Available.Float(); n != want {
				t.Errorf("variant %s available %q, want %v", v.SKU, v.Available, want)
			}
			lvl, ok := vp.StockIn(v, wh)
			if !ok {
				t.Fatalf("variant %s: no stock level sideloaded for warehouse %s", v.SKU, wh)
			}
			if n, _ := lvl.Available.Float(); n != want {
				t.Errorf("variant %s: warehouse level %q, want %v", v.SKU, lvl.Available, want)
			}
		}
		got, err := e.c.Variants.BySKU(t.Context(), []string{"TEE-RED-S"})
		if err != nil || got["TEE-RED-S"] == nil || got["TEE-RED-S"].Available != "42" {
			t.Errorf("BySKU after the stock write: %v %v", got, err)
		}
	})

	t.Run("product file upload and delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		p := e.createProduct(shirt("TEE"))
		data := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 300)
		id := applied(t)(e.c.ProductFiles.Upload(t.Context(), p, "front.png", bytes.NewReader(data)))[0]
		page, err := e.c.ProductFiles.Get(t.Context(), id)
		if err != nil || len(page.Records) != 1 {
			t.Fatalf("detail read: %v (%d files)", err, len(page.Records))
		}
		f := page.Records[0]
		if f.Links.First("Products") != p || f.Size.String() != strconv.Itoa(len(data)) || f.OrigFileName != "front.png" {
			t.Errorf("file links %v size %q name %q, want product %s size %d front.png", f.Links, f.Size, f.OrigFileName, p, len(data))
		}
		applied(t)(e.c.ProductFiles.Delete(t.Context(), id))
		if n := len(collect(t, e.c.ProductFiles.List(t.Context(), nil))); n != 0 {
			t.Errorf("%d files listed after delete, want 0", n)
		}
	})

	t.Run("product tag create detail and delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		tids := applied(t)(e.c.ProductTags.Create(t.Context(), "red", "blue"))
		page, err := e.c.ProductTags.Get(t.Context(), tids[1])
		if err != nil || len(page.Records) != 1 || page.Records[0].Name != "blue" {
			t.Fatalf("detail read (v1): %v %+v", err, page)
		}
		applied(t)(e.c.ProductTags.Delete(t.Context(), tids[0]))
		if got := e.tagNames(); !slices.Equal(got, []string{"blue"}) {
			t.Errorf("tags after delete %v, want [blue]", got)
		}
	})

	t.Run("packing slip create edit delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		e.createProduct(shirt("TEE"))
		order := e.order(t, "1 Main St", sandbox.OrderLine{SKU: "TEE-RED-S", Quantity: 2})
		o, err := e.c.SalesOrders.Get(t.Context(), api.ID(order))
		if err != nil || len(o.Records) != 1 || len(o.OrderLines(o.Records[0])) != 1 {
			t.Fatalf("reading order %s: %v", order, err)
		}
		line := o.OrderLines(o.Records[0])[0].ID
		id := applied(t)(e.c.PackingSlips.Write(t.Context(), []api.PackingSlipWrite{{
			PackingSlipDate: api.String("2026-11-20T10:00:00+0000"), Notes: api.String("first"),
			Links: &api.PackingSlipLinks{SalesOrders: api.Refs(api.ID(order)), LineItems: []api.LineItemRef{{ID: line, Quantity: "2"}}},
		}}))[0]
		page, err := e.c.PackingSlips.Get(t.Context(), id)
		if err != nil || len(page.Records) != 1 {
			t.Fatalf("detail read: %v", err)
		}
		s := page.Records[0]
		if s.Notes != "first" || s.Links.First("SalesOrders") != api.ID(order) || len(s.Links.Of("LineItems")) != 1 ||
			s.Links.Of("LineItems")[0].Quantity != "2" || len(s.PackingSlipDate) < 10 || s.PackingSlipDate[:10] != "2026-11-20" {
			t.Errorf("read back notes %q date %q links %v", s.Notes, s.PackingSlipDate, s.Links)
		}
		applied(t)(e.c.PackingSlips.Write(t.Context(), []api.PackingSlipWrite{{ID: id, Notes: api.String("second")}}))
		if s := collect(t, e.c.PackingSlips.List(t.Context(), nil)); len(s) != 1 || s[0].Notes != "second" {
			t.Errorf("listing after edit: %d slips", len(s))
		}
		applied(t)(e.c.PackingSlips.Delete(t.Context(), id))
		if s := collect(t, e.c.PackingSlips.List(t.Context(), nil)); len(s) != 0 {
			t.Errorf("%d slips listed after delete", len(s))
		}
	})

	t.Run("shipment create edit delete", func(t *testing.T) {
		e := newEnv(t, sandboxOpts(), prefix)
		slip := applied(t)(e.c.PackingSlips.Write(t.Context(), []api.PackingSlipWrite{{Notes: api.String("s")}}))[0]
		rec := api.PackageWrite{ShipDate: api.String("2026-11-21T09:30:00+0000"), Notes: api.String("box 1"),
			TrackingNumber: api.String("1Z999"), TrackingLink: api.String("https://track.example/1Z999"),
			Cost: api.String("4.20"), Delivered: api.String("0"), Links: &api.PackageLinks{PackingSlips: api.Refs(slip)}}
		id := applied(t)(e.c.Packages.Write(t.Context(), []api.PackageWrite{rec}))[0]
		// The interface has no shipment read: an edit naming the id proves
		// it exists, and one after the delete proves it is gone.
		applied(t)(e.c.Packages.Write(t.Context(), []api.PackageWrite{{ID: id, TrackingNumber: api.String("1Z998")}}))
		applied(t)(e.c.Packages.Delete(t.Context(), id))
		rejected(t, "editing a deleted shipment")(e.c.Packages.Write(t.Context(), []api.PackageWrite{{ID: id, Notes: api.String("again")}}))
		// A shipment linking a deleted packing slip is refused.
		applied(t)(e.c.PackingSlips.Delete(t.Context(), slip))
		rejected(t, "shipment of a deleted packing slip")(e.c.Packages.Write(t.Context(), []api.PackageWrite{rec}))
	})
}
