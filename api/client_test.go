package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"lading/api/wire"
)

func TestNewClientRejectsBadBase(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"", "ftp://x", "https://", "https://u:p@host/api2", "https://host/api2?access_token=" + testToken, "://bad"} {
		_, err := NewClient(base, testToken)
		if err == nil {
			t.Errorf("%q: no error", base)
			continue
		}
		if strings.Contains(err.Error(), testToken) {
			t.Errorf("%q: error leaks the token: %v", base, err)
		}
	}
	if _, err := NewClient("https://host", ""); err == nil {
		t.Error("empty token accepted")
	}
	if _, err := NewClient("https://host", "a\nb"); err == nil {
		t.Error("token with a line break accepted")
	}
}

// variantsPages answers Variants listings with pages of per records, total
// records in all.
func variantsPages(total int) func(w http.ResponseWriter, r *http.Request, body []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		var req struct {
			PageNum  int `json:"page_num"`
			PageSize int `json:"page_size"`
		}
		json.Unmarshal(body, &req)
		last := (total + req.PageSize - 1) / req.PageSize
		var recs []string
		for i := (req.PageNum - 1) * req.PageSize; i < min(total, req.PageNum*req.PageSize); i++ {
			recs = append(recs, fmt.Sprintf(`{"id":"%d","sku":"SKU-%d","links":[]}`, i+1, i+1))
		}
		fmt.Fprintf(w, `{"meta":{"current_page":"%d","last_page":"%d","per_page":"%d","total":"%d","from":"0","to":"0"},"Variants":[%s]}`,
			req.PageNum, last, req.PageSize, total, strings.Join(recs, ","))
	}
}

func TestListPagesToLastPageWithPrefix(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, variantsPages(7))
	c := newTestClient(t, srv.URL+"/api2/")
	var skus []string
	opts := &ListOptions{PageSize: 3, Sort: []Sort{{Attr: "sku", Desc: true}}, Filter: And(Where("bundle", "", "0"))}
	for v, err := range c.Variants.List(context.Background(), opts) {
		if err != nil {
			t.Fatal(err)
		}
		if skus = append(skus, string(v.SKU)); len(skus) > 7 {
			t.Fatalf("the listing went on past the 7 records on 3 pages: %v", skus)
		}
	}
	if len(skus) != 7 || skus[0] != "SKU-1" || skus[6] != "SKU-7" {
		t.Errorf("skus = %v", skus)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.Path != "/api2/v2/Variants" {
			t.Errorf("path = %q, want the /api2 prefix kept", r.Path)
		}
		if r.Header.Get("access_token") != testToken {
			t.Errorf("access_token header = %q", r.Header.Get("access_token"))
		}
		if r.Header.Get("Content-Type") != wire.ContentTypeJSON {
			t.Errorf("content type = %q", r.Header.Get("Content-Type"))
		}
		jsonEqual(t, r.Body, fmt.Sprintf(`{"action":"read","page_num":%d,"page_size":3,"sort":[{"sku":"desc"}],"filter":{"and":[{"bundle":"0"}]}}`, i+1))
	}
}

func TestListStopsWhenConsumerBreaks(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, variantsPages(100))
	c := newTestClient(t, srv.URL)
	n := 0
	for _, err := range c.Variants.List(context.Background(), &ListOptions{PageSize: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 12 {
			break
		}
	}
	if got := len(srv.requests()); got != 2 {
		t.Errorf("requests = %d, want 2 (no page read after the break)", got)
	}
}

func TestListMaxPagesAndStartPage(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, variantsPages(100))
	c := newTestClient(t, srv.URL)
	var pages []int
	for p, err := range c.Variants.ListPages(context.Background(), &ListOptions{PageSize: 10, Page: 4, MaxPages: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		if pages = append(pages, p.Meta.CurrentPage); len(pages) > 2 {
			t.Fatalf("pages = %v: the listing went on past MaxPages 2", pages)
		}
	}
	if fmt.Sprint(pages) != "[4 5]" {
		t.Errorf("pages = %v", pages)
	}
}

// Total is one read of one record, its filter kept and its paging not.
func TestTotal(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, variantsPages(1234))
	c := newTestClient(t, srv.URL)
	n, err := c.Variants.Total(context.Background(), &ListOptions{PageSize: 50, Page: 3, MaxPages: 9, Reuse: true,
		Filter: And(Where("bundle", "", "0"))})
	if err != nil || n != 1234 {
		t.Fatalf("Total = %d, %v; want 1234", n, err)
	}
	if got := len(srv.requests()); got != 1 {
		t.Fatalf("%d requests, want 1", got)
	}
	jsonEqual(t, srv.requests()[0].Body, `{"action":"read","page_num":1,"page_size":1,"filter":{"and":[{"bundle":"0"}]}}`)
}

func TestProductPageSize(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ variants, products, want int }{
		{1_000_000, 250_000, 250}, // four a product: 250 products, 1,000 variants
		{1_000, 1_000, 250},       // one a product: the largest page
		{100_000, 1_000, 10},      // a hundred a product: 10 products, 1,000 variants
		{40_000, 10, 1},           // 4,000 a product: one a page
		{0, 0, 250},               // nothing known: the largest page
		{5, 0, 250},
	} {
		if got := ProductPageSize(1000, tt.variants, tt.products); got != tt.want {
			t.Errorf("ProductPageSize(%d, %d) = %d, want %d", tt.variants, tt.products, got, tt.want)
		}
	}
}

func TestListEmptyResult(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write(readFixture(t, "variant_not_found.json"))
	})
	c := newTestClient(t, srv.URL)
	n := 0
	for _, err := range c.Variants.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n > 10 {
			break
		}
	}
	if n != 0 || len(srv.requests()) != 1 {
		t.Errorf("records %d, requests %d", n, len(srv.requests()))
	}
	jsonEqual(t, srv.requests()[0].Body, `{"action":"read","page_num":1,"page_size":250}`)
}

func TestListInvalidFilterSendsNothing(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, variantsPages(1))
	c := newTestClient(t, srv.URL)
	var gotErr error
	n := 0
	for _, err := range c.Products.List(context.Background(), &ListOptions{Filter: And(Where("sku", "", "A"))}) {
		if gotErr = err; err != nil {
			break
		}
		if n++; n > 10 {
			t.Fatalf("an invalid filter yielded %d records and no error", n)
		}
	}
	var qe *QueryError
	if !asErr(gotErr, &qe) || qe.Attr != "sku" {
		t.Errorf("err = %v", gotErr)
	}
	if len(srv.requests()) != 0 {
		t.Error("a request was sent")
	}
}

func TestDetailReadPaths(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"}}`))
	})
	c := newTestClient(t, srv.URL+"/api2")
	ctx := context.Background()
	tests := []struct {
		get  func() error
		path string
		key  string
	}{
		{func() error { _, err := c.Variants.Get(ctx, "1", "2"); return err }, "/api2/v2/Variants/detail", "Variants"},
		{func() error { _, err := c.Products.Get(ctx, "1", "2"); return err }, "/api2/v2/Products/detail", "Products"},
		{func() error { _, err := c.ProductFiles.Get(ctx, "1", "2"); return err }, "/api2/v2/ProductFiles/detail", "ProductFiles"},
		{func() error { _, err := c.ProductTags.Get(ctx, "1", "2"); return err }, "/api2/v1/ProductTags/detail", "ProductTags"},
		{func() error { _, err := c.PackingSlips.Get(ctx, "1", "2"); return err }, "/api2/v2/PackingSlips", "PackingSlips"},
		{func() error { _, err := c.Fulfillments.Get(ctx, "1", "2"); return err }, "/api2/v2/fulfillments/detail", "Fulfillments"},
	}
	for i, tt := range tests {
		if err := tt.get(); err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		r := srv.requests()[i]
		if r.Path != tt.path {
			t.Errorf("path = %q, want %q", r.Path, tt.path)
		}
		jsonEqual(t, r.Body, fmt.Sprintf(`{"action":"read",%q:[{"id":"1"},{"id":"2"}]}`, tt.key))
	}
	if _, err := c.Variants.Get(ctx); err == nil || Classify(err) != Rejected {
		t.Errorf("Get() without ids: %v", err)
	}
}

func TestListingPaths(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"}}`))
	})
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for _, err := range c.Products.List(ctx, nil) {
		t.Fatal(err)
	}
	for _, err := range c.ProductTags.List(ctx, nil) {
		t.Fatal(err)
	}
	for _, err := range c.ProductFiles.List(ctx, nil) {
		t.Fatal(err)
	}
	for _, err := range c.PackingSlips.List(ctx, nil) {
		t.Fatal(err)
	}
	for _, err := range c.Fulfillments.List(ctx, nil) {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range srv.requests() {
		paths = append(paths, r.Path)
	}
	want := "[/v2/Products /v2/ProductTags /v2/ProductFiles /v2/PackingSlips /v2/fulfillments]"
	if fmt.Sprint(paths) != want {
		t.Errorf("paths = %v, want %s", paths, want)
	}
}

func TestBySKUChunksOrConditions(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		var req struct {
			Filter struct {
				Or []map[string]string `json:"or"`
			} `json:"filter"`
		}
		json.Unmarshal(body, &req)
		var recs []string
		for i, c := range req.Filter.Or {
			if strings.HasPrefix(c["sku"], "K") { // SKUs starting with K exist
				recs = append(recs, fmt.Sprintf(`{"id":%d,"sku":%q}`, i+1, c["sku"]))
			}
		}
		fmt.Fprintf(w, `{"meta":{"current_page":"1","last_page":"1"},"Variants":[%s]}`, strings.Join(recs, ","))
	})
	c := newTestClient(t, srv.URL)
	var skus []string
	for i := range BySKUChunk + 5 {
		skus = append(skus, fmt.Sprintf("K%d", i))
	}
	skus = append(skus, "MISSING", "K1", "")
	found, err := c.Variants.BySKU(context.Background(), skus)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != BySKUChunk+5 || found["K3"] == nil || found["MISSING"] != nil {
		t.Errorf("found %d", len(found))
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2 chunks", len(reqs))
	}
	if !strings.Contains(string(reqs[1].Body), fmt.Sprintf(`"or":[{"sku":"K%d"}`, BySKUChunk)) {
		t.Errorf("second chunk = %s", reqs[1].Body)
	}
}

// TestWriteOperations checks the exact request of every write operation.
func TestWriteOperations(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeAnswer(w, body) })
	c := newTestClient(t, srv.URL+"/api2")
	ctx := context.Background()
	one := 1
	tests := []struct {
		name  string
		do    func() (*WriteResult, error)
		path  string
		body  string
		count int
	}{
		{"create packing slip", func() (*WriteResult, error) {
			return c.PackingSlips.Write(ctx, []PackingSlipWrite{{PackingSlipDate: String("2024-01-02T03:04:05+0000"), Notes: String("n"),
				Links: &PackingSlipLinks{Addresses: Refs("1"), Contacts: Refs("2"), LineItems: []LineItemRef{{ID: "3", Quantity: "2"}}, SalesOrders: Refs("4")}}})
		}, "/api2/v1/PackingSlips",
			`{"action":"write","PackingSlips":[{"packing_slip_date":"2024-01-02T03:04:05+0000","notes":"n","links":{"Addresses":[{"id":"1"}],"Contacts":[{"id":"2"}],"LineItems":[{"id":"3","quantity":"2"}],"SalesOrders":[{"id":"4"}]}}]}`, 1},
		{"edit packing slip", func() (*WriteResult, error) {
			return c.PackingSlips.Write(ctx, []PackingSlipWrite{{ID: "9", Notes: String("")}})
		}, "/api2/v1/PackingSlips", `{"action":"write","PackingSlips":[{"id":"9","notes":""}]}`, 1},
		{"delete packing slip", func() (*WriteResult, error) { return c.PackingSlips.Delete(ctx, "9") },
			"/api2/v1/PackingSlips", `{"action":"write","PackingSlips":[{"id":"9","delete":1}]}`, 1},
		{"create shipment", func() (*WriteResult, error) {
			return c.Packages.Write(ctx, []PackageWrite{{ShipDate: String("2024-01-02T03:04:05+0000"), TrackingNumber: String("1Z"), TrackingLink: String("https://t/1Z"),
				Cost: String("4.50"), Delivered: String("0"), Notes: String("x"),
				Links: &PackageLinks{PackingSlips: Refs("5"), PackageCarrierTypes: Refs("1946404"), SalesOrders: Refs("6")}}})
		}, "/api2/v1/Packages",
			`{"action":"write","Packages":[{"ship_date":"2024-01-02T03:04:05+0000","notes":"x","tracking_link":"https://t/1Z","tracking_number":"1Z","cost":"4.50","delivered":"0","links":{"PackingSlips":[{"id":"5"}],"PackageCarrierTypes":[{"id":"1946404"}],"SalesOrders":[{"id":"6"}]}}]}`, 1},
		{"delete shipment", func() (*WriteResult, error) { return c.Packages.Delete(ctx, "7", "8") },
			"/api2/v1/Packages", `{"action":"write","Packages":[{"id":"7","delete":1},{"id":"8","delete":1}]}`, 2},
		{"create product without variants", func() (*WriteResult, error) {
			return c.Products.Write(ctx, []ProductWrite{{Name: String("Mug"), Description: String("d"), Links: &ProductLinks{Variants: []VariantWrite{{}}}}})
		}, "/api2/v1/Products/detail", `{"action":"write","Products":[{"name":"Mug","description":"d","links":{"Variants":[{}]}}]}`, 1},
		{"create product with variants", func() (*WriteResult, error) {
			return c.Products.Write(ctx, []ProductWrite{{Name: String("Tee"), Links: &ProductLinks{
				Attributes: []AttributeRef{{Name: "Size", Order: 0}, {Name: "Color", Order: 1}},
				Variants: []VariantWrite{
					{SKU: String("T-S-R"), Quantity: String("5"), Cost: String("2.00"), Links: &VariantLinks{AttributeOptions: []OptionRef{{Value: "S", Order: &one}, {Value: "Red"}}}},
					{SKU: String("T-M-R"), Links: &VariantLinks{AttributeOptions: []OptionRef{{Value: "M"}, {Value: "Red"}}, PricingTiers: []TierValue{{Name: "Retail", Value: "12.00"}}}},
				},
				PricingTiers: []TierValue{{ID: "1376436", Value: "10.00"}, {Name: "Wholesale", Value: "6.00"}},
				ProductTags:  []TagRef{{ID: "3"}, {Name: "summer"}},
			}}})
		}, "/api2/v1/Products/detail",
			`{"action":"write","Products":[{"name":"Tee","links":{"Variants":[{"sku":"T-S-R","cost":"2.00","quantity":"5","links":{"AttributeOptions":[{"value":"S","order":1},{"value":"Red"}]}},{"sku":"T-M-R","links":{"AttributeOptions":[{"value":"M"},{"value":"Red"}],"PricingTiers":[{"name":"Retail","value":"12.00"}]}}],"Attributes":[{"name":"Size","order":0},{"name":"Color","order":1}],"PricingTiers":[{"id":"1376436","value":"10.00"},{"name":"Wholesale","value":"6.00"}],"ProductTags":[{"id":"3"},{"name":"summer"}]}}]}`, 1},
		{"edit product", func() (*WriteResult, error) {
			return c.Products.Write(ctx, []ProductWrite{{ID: "11", Notes: String("new")}})
		}, "/api2/v1/Products/detail", `{"action":"write","Products":[{"id":"11","notes":"new"}]}`, 1},
		{"archive product", func() (*WriteResult, error) { return c.Products.Archive(ctx, "11") },
			"/api2/v1/Products/detail", `{"action":"write","Products":[{"id":"11","archive":1}]}`, 1},
		{"bulk archive", func() (*WriteResult, error) { return c.Products.BulkArchive(ctx, []ID{"11", "12"}) },
			"/api2/v1/Products/detail", `{"action":"write","bulk_action":{"archive":1},"Products":[{"id":"11"},{"id":"12"}]}`, 2},
		{"tag product", func() (*WriteResult, error) { return c.Products.Tag(ctx, "11", TagRef{ID: "3"}, TagRef{Name: "new"}) },
			"/api2/v1/Products/detail", `{"action":"write","Products":[{"id":"11","links":{"ProductTags":[{"id":"3"},{"name":"new"}]}}]}`, 1},
		{"bulk tag", func() (*WriteResult, error) { return c.Products.BulkTag(ctx, []ID{"11", "12"}, []ID{"3"}) },
			"/api2/v1/Products/detail", `{"action":"write","bulk_action":{"Tags":[{"id":"3","assign":1}]},"Products":[{"id":"11"},{"id":"12"}]}`, 2},
		{"bulk untag", func() (*WriteResult, error) { return c.Products.BulkUntag(ctx, []ID{"11"}, []ID{"3", "4"}) },
			"/api2/v1/Products/detail", `{"action":"write","bulk_action":{"Tags":[{"assign":0,"id":"3"},{"assign":0,"id":"4"}]},"Products":[{"id":"11"}]}`, 1},
		{"delete product", func() (*WriteResult, error) { return c.Products.Delete(ctx, "11") },
			"/api2/v1/Products/detail", `{"action":"write","Products":[{"id":"11","delete":1}]}`, 1},
		{"create variant", func() (*WriteResult, error) {
			return c.Variants.Write(ctx, []VariantWrite{{Weight: String("1.5"), Links: &VariantLinks{Products: Refs("11")}}})
		}, "/api2/v1/Variants/detail", `{"action":"write","Variants":[{"weight":"1.5","links":{"Products":[{"id":"11"}]}}]}`, 1},
		{"create variant with new attribute", func() (*WriteResult, error) {
			return c.Variants.Write(ctx, []VariantWrite{{Links: &VariantLinks{AttributeOptions: []OptionRef{{Value: "XL", Attribute: "Size"}}, Products: Refs("11")}}})
		}, "/api2/v1/Variants/detail", `{"action":"write","Variants":[{"links":{"AttributeOptions":[{"value":"XL","links":{"Attributes":[{"name":"Size"}]}}],"Products":[{"id":"11"}]}}]}`, 1},
		{"edit variant", func() (*WriteResult, error) {
			return c.Variants.Write(ctx, []VariantWrite{{ID: "21", Weight: String("2"), SKU: String("NEW")}})
		}, "/api2/v1/Variants/detail", `{"action":"write","Variants":[{"id":"21","sku":"NEW","weight":"2"}]}`, 1},
		{"delete variant", func() (*WriteResult, error) { return c.Variants.Delete(ctx, "21") },
			"/api2/v1/Variants/detail", `{"action":"write","Variants":[{"id":"21","delete":1}]}`, 1},
		{"set stock", func() (*WriteResult, error) {
			return c.Stock.SetAvailable(ctx, []StockLevel{{VariantID: "21", WarehouseID: "74142", Units: 100}, {VariantID: "22", WarehouseID: "74142", Units: 0}})
		}, "/api2/v1/Variants/detail",
			`{"action":"write","Variants":[{"id":"21","links":{"ReconcileInventory":[{"change":"set_available","units":100,"links":{"AccountAddresses":[{"id":"74142"}]}}]}},{"id":"22","links":{"ReconcileInventory":[{"change":"set_available","units":0,"links":{"AccountAddresses":[{"id":"74142"}]}}]}}]}`, 2},
		{"delete product file", func() (*WriteResult, error) { return c.ProductFiles.Delete(ctx, "31") },
			"/api2/v1/ProductFiles", `{"action":"write","ProductFiles":[{"id":"31","delete":"1"}]}`, 1},
		{"create tag", func() (*WriteResult, error) { return c.ProductTags.Create(ctx, "summer") },
			"/api2/v1/ProductTags/detail", `{"action":"write","ProductTags":[{"name":"summer"}]}`, 1},
		{"delete tag", func() (*WriteResult, error) { return c.ProductTags.Delete(ctx, "3") },
			"/api2/v1/ProductTags/detail", `{"action":"write","ProductTags":[{"id":"3","delete":1}]}`, 1},
		{"post shipments", func() (*WriteResult, error) {
			return c.Fulfillments.PostShipments(ctx, []ShipmentWrite{{ShippedAt: "2024-01-02T03:04:05+0000", TrackingNumber: "1Z", Carrier: "UPS",
				Links: ShipmentLinks{Fulfillments: Refs("41"), LineItems: []LineItemRef{{ID: "42", Quantity: "1"}}}}})
		}, "/api2/v1/fulfillments/shipments",
			`{"action":"write","Shipments":[{"shipped_at":"2024-01-02T03:04:05+0000","tracking_number":"1Z","carrier":"UPS","links":{"Fulfillments":[{"id":"41"}],"LineItems":[{"id":"42","quantity":"1"}]}}]}`, 1},
		{"set fulfillment status", func() (*WriteResult, error) { return c.Fulfillments.SetStatus(ctx, "41", "picking") },
			"/api2/v1/fulfillments", `{"action":"write","Fulfillments":[{"id":"41","status":"picking"}]}`, 1},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.do()
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Failed) != 0 || len(res.IDs) != tt.count || res.IDs[0] != "1001" || !res.OK(tt.count-1) {
				t.Errorf("result = %+v", res)
			}
			r := srv.requests()[i]
			if r.Path != tt.path {
				t.Errorf("path = %q, want %q", r.Path, tt.path)
			}
			jsonEqual(t, r.Body, tt.body)
		})
	}
}

func TestWriteLimitsBeforeSending(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeAnswer(w, body) })
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	_, err := c.Products.Write(ctx, make([]ProductWrite, wire.MaxWriteRecords+1))
	if !errors.Is(err, ErrInvalid) || Classify(err) != Rejected || !strings.Contains(err.Error(), "at most 100") {
		t.Errorf("oversized write: %v", err)
	}
	if _, err := c.Variants.Write(ctx, nil); err == nil {
		t.Error("empty write accepted")
	}
	if _, err := c.Stock.SetAvailable(ctx, []StockLevel{{VariantID: "1"}}); err == nil || !strings.Contains(err.Error(), "warehouse") {
		t.Errorf("stock without warehouse: %v", err)
	}
	if len(srv.requests()) != 0 {
		t.Errorf("%d requests sent", len(srv.requests()))
	}
}

func TestUploadProductFile(t *testing.T) {
	t.Parallel()
	type part struct{ name, file, content string }
	var parts []part
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			http.Error(w, "want multipart", http.StatusBadRequest)
			return
		}
		mr := multipart.NewReader(strings.NewReader(string(body)), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, part{p.FormName(), p.FileName(), string(b)})
		}
		w.Write([]byte(`{"ProductFiles":[{"id":"77"}]}`))
	})
	c := newTestClient(t, srv.URL+"/api2")
	res, err := c.ProductFiles.Upload(context.Background(), "114390204", "mug.jpg", strings.NewReader("JPEGDATA"))
	if err != nil || res.IDs[0] != "77" {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if srv.requests()[0].Path != "/api2/v1/ProductFiles" {
		t.Errorf("path = %s", srv.requests()[0].Path)
	}
	if len(parts) != 3 {
		t.Fatalf("parts = %+v", parts)
	}
	jsonEqual(t, []byte(parts[0].content), `{"action":"write","ProductFiles":[{"links":{"Products":[{"id":"114390204"}]}}]}`)
	if parts[0].name != "json" || parts[1] != (part{"action", "", "write"}) || parts[2] != (part{"file", "mug.jpg", "JPEGDATA"}) {
		t.Errorf("parts = %+v", parts)
	}
}

func TestPartialWriteIsRejectedPerRecord(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"Variants":[{"id":"1"},{"error":{"index":1,"field":"sku","message":"sku already exists"}},{"id":3},{"error":"weight must be a number"}]}`))
	})
	c := newTestClient(t, srv.URL)
	res, err := c.Variants.Write(context.Background(), make([]VariantWrite, 4))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.IDs) != "[1  3 ]" {
		t.Errorf("ids = %q", res.IDs)
	}
	want := []RecordError{{Index: 1, Field: "sku", Message: "sku already exists"}, {Index: 3, Message: "weight must be a number"}}
	if fmt.Sprint(res.Failed) != fmt.Sprint(want) {
		t.Errorf("failed = %+v", res.Failed)
	}
}

// TestDetailReadRefusesAPagedAnswer: a detail answer has a listing's meta
// [A.5]; when it says more pages follow, Get fails instead of returning
// part of the records asked for.
func TestDetailReadRefusesAPagedAnswer(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"2","per_page":"1","total":"2"},"Variants":[{"id":"1"}]}`))
	})
	c := newTestClient(t, srv.URL)
	p, err := c.Variants.Get(context.Background(), "1", "2")
	if err == nil {
		t.Fatalf("Get returned %d of 2 variants and no error", len(p.Records))
	}
	if Classify(err) != Rejected || !strings.Contains(err.Error(), "page 1 of 2") || !strings.Contains(err.Error(), "at most 1 ids") {
		t.Errorf("err = %v (%s), want a rejected call naming the paging", err, Classify(err))
	}
}

// TestRedirectsAreNotFollowed: a redirect must not carry the access_token
// header to the host it names (Go forwards headers it does not know as
// sensitive), and says where it pointed.
func TestRedirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	elsewhere := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"1"},"Variants":[]}`))
	})
	for _, status := range []int{http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
			http.Redirect(w, r, elsewhere.URL+r.URL.Path, status)
		})
		hc := &http.Client{}
		c := newTestClient(t, srv.URL, WithHTTPClient(hc), WithRetries(0))
		_, err := c.Variants.Get(context.Background(), "1")
		if err == nil || !strings.Contains(err.Error(), elsewhere.URL) || Classify(err) != Rejected {
			t.Errorf("%d: err = %v, want a rejected call naming %s", status, err, elsewhere.URL)
		}
		if hc.CheckRedirect != nil {
			t.Errorf("%d: the caller's HTTP client was changed", status)
		}
	}
	if got := elsewhere.requests(); len(got) > 0 {
		t.Errorf("the redirect was followed %d times; access_token sent: %q", len(got), got[0].Header.Get("access_token"))
	}
}

// TestListStopsAtLastPageWhateverCurrentPageSays: an answer that ignores
// page_num (current_page stays 1) must not make the listing loop forever.
func TestListStopsAtLastPageWhateverCurrentPageSays(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Write([]byte(`{"meta":{"current_page":"1","last_page":"3"},"Variants":[{"id":"1"}]}`))
	})
	c := newTestClient(t, srv.URL)
	n := 0
	for _, err := range c.Variants.List(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n > 10 {
			break
		}
	}
	if n != 3 || len(srv.requests()) != 3 {
		t.Errorf("read %d records in %d requests, want 3 in 3 (last_page)", n, len(srv.requests()))
	}
}
