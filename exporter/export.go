package exporter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/exporter/sheet"
	"lading/progress"
)

// Resources an export reads, as the command names them.
const (
	Products     = "products"
	Variants     = "variants"
	PackingSlips = "packing-slips"
	Fulfillments = "fulfillments"
	Tags         = "tags"
)

// ResourceNames are the resources an export reads, in the order help
// lists them.
var ResourceNames = []string{Products, Variants, PackingSlips, Fulfillments, Tags}

// Options configure an export.
type Options struct {
	Client   *api.Client
	Resource string // one of ResourceNames
	Query    Query
	// Columns chooses and orders the columns of a one-sheet export; empty
	// means every column of its default layout.
	Columns []string
	// Report, when set, is the layout: its sheets and columns.
	Report *Report
	Output string // .xlsx, else CSV
	// BOM and Delimiter shape a CSV file.
	BOM       bool
	Delimiter rune
	// Keep, when set, chooses the records of a fulfillments pull: those
	// not pulled before, say.
	Keep func(id api.ID) bool
	// Location is the zone the file's dates and times are written in, and
	// which it names (see sheet.Options.Location); nil writes them in UTC
	// and CSV cells as the service gives them.
	Location *time.Location
	// Account names the account in an XLSX file's footer and properties;
	// "" names it by the host of the client's base URL. Never the token.
	Account string
	// Concurrency is how many pages are read at once; 0 means 4.
	Concurrency int
	Progress    *progress.Progress
}

// Summary says what an export wrote.
type Summary struct {
	Resource  string        `json:"resource"`
	Files     []string      `json:"files"`
	Records   int           `json:"records"`
	Rows      int           `json:"rows"`
	Pages     int           `json:"pages"`
	Requests  int64         `json:"requests"`
	Throttled int64         `json:"throttled"`
	Elapsed   time.Duration `json:"elapsed_ns"`
	// Zone is the zone of the file's dates and times ("" for UTC as the
	// service gives them).
	Zone string `json:"zone,omitempty"`
	// IDs are the records a fulfillments pull wrote.
	IDs []string `json:"ids,omitempty"`
}

// ErrTooManyAttributes is returned (wrapped) by an export of products in
// the catalog layout when a product has more attributes than the layout
// holds.
var ErrTooManyAttributes = errors.New("too many attributes for the catalog layout")

// ErrColumns is returned (wrapped) when --columns names a column the
// export does not have.
var ErrColumns = errors.New("unknown column")

// Export reads the listing the options ask for and writes it to
// o.Output. Nothing is written when it fails: the file appears, whole,
// when the export succeeds.
func Export(ctx context.Context, o Options) (*Summary, error) {
	start, stats0 := time.Now(), o.Client.Stats()
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	var (
		sum *Summary
		err error
	)
	switch o.Resource {
	case Products:
		if o, err = catalogReport(o); err != nil {
			return nil, err
		}
		sum, err = exportCatalog(ctx, o)
	default:
		res, ok := resources[o.Resource]
		if !ok {
			return nil, fmt.Errorf("no export of %q; exports: %s", o.Resource, strings.Join(ResourceNames, ", "))
		}
		sum, err = exportTable(ctx, o, res)
	}
	if err != nil {
		return nil, err
	}
	st := o.Client.Stats()
	sum.Resource, sum.Requests, sum.Throttled = o.Resource, st.Requests-stats0.Requests, st.Throttled-stats0.Throttled
	sum.Elapsed = time.Since(start)
	if o.Location != nil {
		sum.Zone = o.Location.String()
	}
	return sum, nil
}

// sheetOptions are the settings of the file o writes, titled title.
func (o Options) sheetOptions(title string) sheet.Options {
	return sheet.Options{Title: title, BOM: o.BOM, Delimiter: o.Delimiter, Raw: o.Resource == PullLines, Location: o.Location,
		Subject: o.Query.Words(o.Resource), Account: o.account()}
}

// account is how a report names the account: Account, else the host of
// the client's base URL.
func (o Options) account() string {
	if o.Account != "" || o.Client == nil {
		return o.Account
	}
	u, err := url.Parse(o.Client.BaseURL())
	if err != nil {
		return ""
	}
	return u.Host
}

// selectColumns returns the indexes of want among cols (all of them when
// want is empty), or an error naming what cols has.
func selectColumns(cols []sheet.Column, want []string) ([]int, error) {
	if len(want) == 0 {
		idx := make([]int, len(cols))
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Header
	}
	var idx []int
	for _, w := range want {
		i := slices.Index(names, strings.TrimSpace(w))
		if i < 0 {
			return nil, fmt.Errorf("%w %q: this export's columns are %s", ErrColumns, w, strings.Join(names, ", "))
		}
		idx = append(idx, i)
	}
	return idx, nil
}

func pick(cols []sheet.Column, idx []int) []sheet.Column {
	out := make([]sheet.Column, len(idx))
	for i, j := range idx {
		out[i] = cols[j]
	}
	return out
}

func pickCells(cells []string, idx []int, buf []string) []string {
	buf = buf[:0]
	for _, j := range idx {
		buf = append(buf, cells[j])
	}
	return buf
}

// title is the document title of an export of resource.
func title(resource string) string {
	return "lading export: " + resource
}

// catalogKinds are the kinds of the catalog layout's columns.
func catalogKind(name string) sheet.Kind {
	switch {
	case name == "weight" || name == "cost" || name == "stock":
		return sheet.Number
	case strings.HasPrefix(name, tierPrefix):
		return sheet.Money
	}
	return sheet.Text
}

// pageVariants is about how many variants a page of products should
// carry: a few pages of 40 MB read ahead would take half a gigabyte.
const pageVariants = 4 * wire.MaxPageSize

// catalogPageSize is the page size of the products listing that keeps a
// page near pageVariants variants, from a first page of probeProducts
// products. When that page holds the whole listing it is returned too,
// and is all there is to read.
func catalogPageSize(ctx context.Context, c *api.Client, lo *api.ListOptions) (int, *api.ProductPage, error) {
	probe := *lo
	probe.PageSize, probe.MaxPages = probeProducts, 1
	for p, err := range c.Products.ListPages(ctx, &probe) {
		if err != nil {
			return 0, nil, err
		}
		if len(p.Records) == 0 || !p.Meta.HasMore() {
			return probeProducts, p, nil
		}
		return api.ProductPageSize(pageVariants, len(p.Variants), len(p.Records)), nil, nil
	}
	return wire.MaxPageSize, nil, nil
}

const probeProducts = 10

// catalogReport turns a report template for products (one sheet of rows
// "catalog") into the columns it chooses.
func catalogReport(o Options) (Options, error) {
	r := o.Report
	if r == nil {
		return o, nil
	}
	if r.Resource != "" && r.Resource != Products {
		return o, &MismatchError{Report: r.Name, For: r.Resource, Resource: Products}
	}
	if len(r.Sheets) != 1 || r.Sheets[0].Rows != "catalog" {
		return o, fmt.Errorf("%w %s: a products export writes one sheet of rows \"catalog\"", ErrReport, r.Name)
	}
	if r.Summary != "" || r.Sheets[0].Group != "" {
		return o, fmt.Errorf("%w %s: a products export has no summary and no groups: those are for packing slips and picking lists", ErrReport, r.Name)
	}
	o.Columns = nil
	for _, c := range r.Sheets[0].Columns {
		if c.Field == "" {
			return o, fmt.Errorf("%w %s: a products export writes fields of the catalog, not a value or a check box (column %q)", ErrReport, r.Name, c.Header)
		}
		o.Columns = append(o.Columns, c.Field)
	}
	return o, nil
}

// noPrint marks the columns of cols that the report keeps off the printed
// pages, by their fields.
func (r *Report) noPrint(cols []sheet.Column) []sheet.Column {
	if r == nil {
		return cols
	}
	for _, c := range r.Sheets[0].Columns {
		if i := slices.IndexFunc(cols, func(col sheet.Column) bool { return col.Header == c.Field }); i >= 0 && c.noPrint() {
			cols[i].NoPrint = true
		}
	}
	return cols
}

// exportCatalog writes the products, one row per variant, in the generic
// template's layout: the file imports back unchanged. It reads every
// product into a spool, since the pricing tiers (the last columns) are
// known only once every product is read, then writes the spooled rows.
func exportCatalog(ctx context.Context, o Options) (*Summary, error) {
	lo, err := o.Query.ListOptions(wire.Products)
	if err != nil {
		return nil, err
	}
	if err := checkCatalogColumns(o.Columns); err != nil {
		return nil, err
	}
	sp, err := newSpool(filepath.Dir(o.Output))
	if err != nil {
		return nil, err
	}
	defer sp.close()
	sum, err := readCatalog(ctx, o, lo, sp)
	if err != nil {
		return nil, err
	}
	tiers, cols := catalogLayout(sp)
	idx, err := selectColumns(cols, o.Columns)
	if err != nil {
		return nil, err
	}
	if err := writeCatalog(o, sp, tiers, cols, idx, sum); err != nil {
		return nil, err
	}
	return sum, nil
}

// checkCatalogColumns refuses a chosen column the catalog cannot have. The
// tiers are known once every product is read, so any column named with
// the tier prefix passes here.
func checkCatalogColumns(columns []string) error {
	for _, c := range columns {
		if c = strings.TrimSpace(c); !slices.Contains(catalogColumns, c) && !strings.HasPrefix(c, tierPrefix) {
			return fmt.Errorf("%w %q: the catalog's columns are %s, and %s<tier name> for each pricing tier", ErrColumns, c, strings.Join(catalogColumns, ", "), tierPrefix)
		}
	}
	return nil
}

// readCatalog reads every product the query chooses into the spool, in one
// request when the first page holds them all, and says how many records
// and pages it read.
func readCatalog(ctx context.Context, o Options, lo *api.ListOptions, sp *spool) (*Summary, error) {
	sum := &Summary{}
	page := func(p *api.ProductPage) error {
		sum.Records += len(p.Records)
		o.Progress.Reading(sum.Records)
		return catalogRows(p, sp.add)
	}
	size, whole, err := catalogPageSize(ctx, o.Client, lo)
	switch {
	case err != nil:
	case whole != nil:
		sum.Pages, err = 1, page(whole)
	default:
		lo.PageSize = size
		sum.Pages, err = readPages(ctx, o.Client.Products.ListPages, lo, o.Concurrency, page)
	}
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// catalogLayout gives the pricing tiers the spooled rows name, sorted, and
// every column of the catalog: its fixed columns, then one per tier.
func catalogLayout(sp *spool) (tiers []string, cols []sheet.Column) {
	tiers = make([]string, 0, len(sp.extra))
	for t := range sp.extra {
		tiers = append(tiers, t)
	}
	slices.Sort(tiers)
	for _, name := range append(slices.Clone(catalogColumns), tiers...) {
		cols = append(cols, sheet.Column{Header: name, Kind: catalogKind(name)})
	}
	return tiers, cols
}

// writeCatalog writes the spooled rows, the columns idx chooses of cols,
// to the output file, and counts them and names the files in sum.
func writeCatalog(o Options, sp *spool, tiers []string, cols []sheet.Column, idx []int, sum *Summary) error {
	name, docTitle := "Catalog", title(Products)
	if o.Report != nil {
		name, docTitle = o.Report.Sheets[0].Name, cmp.Or(o.Report.Title, docTitle)
	}
	w, err := sheet.Create(o.Output, o.sheetOptions(docTitle),
		sheet.Sheet{Name: name, Columns: o.Report.noPrint(pick(cols, idx))})
	if err != nil {
		return err
	}
	defer w.Discard()
	full := make([]string, len(cols))
	var buf []string
	err = sp.each(func(r spoolRow) error {
		copy(full, r.Cells)
		for i, t := range tiers {
			full[len(catalogColumns)+i] = r.Extra[t]
		}
		sum.Rows++
		return w.Row(0, pickCells(full, idx, buf)...)
	})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return err
	}
	sum.Files = w.Paths()
	return nil
}
