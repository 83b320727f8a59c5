package api_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"lading/api"
)

// Listing variants with a filter: the iterator pages to the last page.
func ExampleVariantsService_List() {
	// A stand-in for the service: prints the request, answers one page.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Printf("POST %s %s\n", r.URL.Path, body)
		fmt.Fprint(w, `{"meta":{"current_page":"1","last_page":"1","per_page":"250","total":"2","from":"1","to":"2"},
			"Variants":[{"id":"1","sku":"MUG-RED","stock":"4","links":[]},{"id":2,"sku":"MUG-BLUE","stock":null,"links":{}}]}`)
	}))
	defer srv.Close()

	c, err := api.NewClient(srv.URL+"/api2", "example-token")
	if err != nil {
		log.Fatal(err)
	}
	opts := &api.ListOptions{
		Filter: api.And(
			api.Where("bundle", "", "0"),
			api.Or(api.Where("sku", "", "MUG-RED"), api.Where("sku", "", "MUG-BLUE")),
		),
		Sort: []api.Sort{{Attr: "sku"}},
	}
	for v, err := range c.Variants.List(context.Background(), opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s stock=%q\n", v.ID, v.SKU, v.Stock)
	}
	// Output:
	// POST /api2/v2/Variants {"action":"read","filter":{"and":[{"bundle":"0"}],"or":[{"sku":"MUG-RED"},{"sku":"MUG-BLUE"}]},"page_num":1,"page_size":250,"sort":[{"sku":"asc"}]}
	// 1 MUG-RED stock="4"
	// 2 MUG-BLUE stock=""
}

// A filter the wire cannot carry is refused before anything is sent.
func ExampleFilter_Validate() {
	err := api.And(api.Where("colour", "", "red")).Validate("Products")
	fmt.Println(err)
	// Output:
	// api: filter on Products: attribute "colour" is not filterable on Products (rule: filterable); allowed: id, archived, created_at, local_id, name, notes, updated_at
}
