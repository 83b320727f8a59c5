package stock_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"lading/api"
	"lading/api/wire"
	"lading/engine"
	"lading/mapping"
	"lading/sandbox"
	"lading/sandbox/sandboxtest"
	"lading/stock"
)

// env is a sandbox account, a client of it and a state file.
type env struct{ *sandboxtest.Env }

// scope is the account scope of every push of the tests.
const scope = "test"

func newEnv(t testing.TB, opts sandbox.Options) *env { return &env{sandboxtest.New(t, opts)} }

func sku(i int) string { return fmt.Sprintf("SKU-%06d", i) }

// seed creates n variants SKU-000000 ... with opening stock units(i), in
// products of up to 100 variants (one Size attribute), 20 products a
// write.
func (e *env) seed(n int, units func(int) int64) {
	e.T.Helper()
	var prods []api.ProductWrite
	flush := func() {
		if len(prods) == 0 {
			return
		}
		res, err := e.C.Products.Write(context.Background(), prods)
		if err != nil || len(res.Failed) > 0 {
			e.T.Fatalf("seeding: %v %v", err, res)
		}
		prods = prods[:0]
	}
	for start := 0; start < n; start += 100 {
		p := api.ProductWrite{Name: api.String(fmt.Sprintf("Product %d", start/100)),
			Links: &api.ProductLinks{Attributes: []api.AttributeRef{{Name: "Size"}}}}
		for i := start; i < min(start+100, n); i++ {
			s, q := sku(i), fmt.Sprint(units(i))
			p.Links.Variants = append(p.Links.Variants, api.VariantWrite{SKU: &s, Quantity: &q,
				Links: &api.VariantLinks{AttributeOptions: []api.OptionRef{{Value: fmt.Sprint("S", i), Attribute: "Size"}}}})
		}
		prods = append(prods, p)
		if len(prods) == 20 {
			flush()
		}
	}
	flush()
}

// live reads every variant's available units in the token's warehouse, by
// SKU, and their ids.
func (e *env) live() (levels map[string]float64, ids map[string]api.ID) {
	e.T.Helper()
	levels, ids = map[string]float64{}, map[string]api.ID{}
	n := 0
	for p, err := range e.C.Variants.ListPages(context.Background(), nil) {
		if err != nil {
			e.T.Fatal(err)
		}
		if n++; n > 2000 {
			e.T.Fatal("the listing never ended")
		}
		for _, v := range p.Records {
			if v.Deleted.Bool() {
				continue
			}
			ids[string(v.SKU)] = v.ID
			for _, lid := range v.Links.IDs(wire.WarehouseStockLevels) {
				if l := p.WarehouseStockLevels[lid]; l != nil && string(l.WarehouseID()) == e.Acct.WarehouseID {
					f, _ := l.Available.Float()
					levels[string(v.SKU)] = f
				}
			}
		}
	}
	return levels, ids
}

// file writes a stock CSV with rows (sku, quantity[, warehouse]).
func (e *env) file(name string, rows ...[]string) string {
	e.T.Helper()
	p := filepath.Join(e.Dir, name)
	f, err := os.Create(p)
	if err != nil {
		e.T.Fatal(err)
	}
	w := csv.NewWriter(f)
	header := []string{"sku", "quantity"}
	if slices.ContainsFunc(rows, func(r []string) bool { return len(r) > 2 }) {
		header = append(header, "warehouse")
	}
	w.Write(header)
	for _, r := range rows {
		w.Write(append(r, make([]string, len(header)-len(r))...))
	}
	w.Flush()
	if err := f.Close(); err != nil {
		e.T.Fatal(err)
	}
	return p
}

// levelsFile writes a stock CSV of SKU-000000 ... SKU-(n-1) with units(i).
func (e *env) levelsFile(name string, n int, units func(int) int64) string {
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = []string{sku(i), fmt.Sprint(units(i))}
	}
	return e.file(name, rows...)
}

var stockMapping = func() *mapping.Mapping {
	m, err := mapping.Parse("stock.yaml", []byte("stock:\n  sku: sku\n  quantity: quantity\n  warehouse: {column: warehouse, optional: true}\n"))
	if err != nil {
		panic(err)
	}
	return m
}()

// push pushes file with the env's client and state; opts may change the
// options.
func (e *env) push(file string, opts ...func(*stock.Options)) (*stock.Report, error) {
	e.T.Helper()
	o := stock.Options{Options: engine.Options{Client: e.C, State: e.State, Scope: scope, Mapping: stockMapping, Input: file}}
	for _, f := range opts {
		f(&o)
	}
	return stock.Push(context.Background(), o)
}

// actions tallies the report's rows by action.
func actions(rep *stock.Report) map[engine.Status]int {
	out := map[engine.Status]int{}
	for _, l := range rep.Lines {
		out[l.Action]++
	}
	return out
}
