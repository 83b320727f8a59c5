package importer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"lading/api"
	"lading/api/wire"
	"lading/catalog"
	"lading/engine"
	"lading/plural"
	"lading/state"
)

// An incremental import (Options.Incremental) leaves in the state, for
// each product of its file it found equal to the account's, a mark: the
// sum of what the file says of the product, the ids the account holds it
// under, and the day it was found so. The next incremental import takes
// a product whose content has the sum of its mark for equal to the
// account's without reading it, unless the account changed something of
// it since the mark's day: it reads the products and variants changed
// since (the listings filtered by updated_at, at a day's grain, a day
// early for the service's time zone) and compares those products, and
// the products the file changed, as any import does.
//
// A product with images is marked when they were all found in the account
// as they are; the product files changed since are read then too.
//
// What the listings cannot show, it finds another way, or gives the
// marks up and compares the whole file: a tag renamed since (a tag is
// shared by products, and renaming it changes none of them: a tag whose
// updated_at is not its created_at); a variant or tag deleted since (a
// deleted record is not listed), by a count of the account's variants and
// tags (and files) created before the day before the last incremental import, which
// only a deletion lowers; an account that changed more than half its
// variants, or of the products marked, since, which is read whole sooner;
// and marks it cannot read.

// checkKey is the key of the count of the account's older variants and
// tags (and files) in state.KeyImportedCheck.
const checkKey = "older"

// contentSum is the sum of a product's content (catalog.Product.AppendContent)
// under its import's prefix; zero for a product that gets no mark.
type contentSum [16]byte

// Marks are the marks of an incremental import's products: those the
// state held, and their sums, by product number of the file.
type Marks struct {
	db                *state.DB
	scope, checkScope string
	day               time.Time // the day of the import, UTC
	// sums are the products' (see sum), made beside what comes next
	// (the account's size, reading the marks): summed are closed as
	// those of each sumChunk products are made, in order, mostly.
	sums   []contentSum
	summed []chan struct{}
	// kept are the marks of products not in the file, key and mark,
	// written again as they are.
	kept [][2][]byte
	// Settled counts the products taken as equal by their marks; Since is
	// the day from which the changes were read ("" when none were);
	// GaveUp says why the marks were given up for a whole comparison
	// ("" when they were not).
	Settled int
	Since   string
	GaveUp  string
	// checked is the count of the account's older records ("DAY
	// VARIANTS TAGS FILES") this import made as it began, from the day
	// the next one counts from (see countDay), once it found the account
	// holding as many as the last import counted.
	checked string
	// loaded says the marks were read (the account had something to
	// compare with): only then are they written again, with those of
	// other imports' products.
	loaded bool
	// files says the products' files are compared (images are taken in,
	// and products have some): the account's changes and deletions of
	// files are read too. settledFiles counts the files of the products
	// settled.
	files        bool
	settledFiles int
}

// newMarkSet starts summing the content of products under prefix (what
// else decides how a file is read and planned: the mapping, the mode),
// for an incremental import on account's scope in db at now; images says
// the import takes the images in (then the account's product files are
// compared too, when the products have some). The products are summed
// sumChunk at a time, in order, on as many goroutines as there are
// cores.
func newMarkSet(db *state.DB, account string, products []*catalog.Product, prefix []byte, now time.Time, images bool) *Marks {
	m := &Marks{db: db, scope: state.KeyImported(account), checkScope: state.KeyImportedCheck(account),
		day: now.UTC().Truncate(24 * time.Hour), sums: make([]contentSum, len(products))}
	m.summed = make([]chan struct{}, (len(products)+sumChunk-1)/sumChunk)
	for c := range m.summed {
		m.summed[c] = make(chan struct{})
	}
	under := sha256.Sum256(prefix) // a mapping of kilobytes, summed once
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), len(m.summed)) {
		go func() {
			var buf []byte
			for c := int(next.Add(1) - 1); c < len(m.summed); c = int(next.Add(1) - 1) {
				for i := c * sumChunk; i < min((c+1)*sumChunk, len(products)); i++ {
					if p := products[i]; markable(p) {
						buf = p.AppendContent(append(buf[:0], under[:]...))
						sum := sha256.Sum256(buf)
						m.sums[i] = contentSum(sum[:len(contentSum{})])
					}
				}
				close(m.summed[c])
			}
		}()
	}
	m.files = images && slices.ContainsFunc(products, func(p *catalog.Product) bool { return len(p.Images()) > 0 })
	return m
}

// sumChunk is how many products' sums are made at a time.
const sumChunk = 1024

// sum is the sum of product i, once made; zero for a product not
// markable.
func (m *Marks) sum(i int32) contentSum {
	<-m.summed[i/sumChunk]
	return m.sums[i]
}

// summedAll waits for every sum: the sums read the products' data, which
// nothing may let go of before (catalog.Product.ReleaseData). m may be
// nil.
func (m *Marks) summedAll() {
	if m == nil {
		return
	}
	for _, done := range m.summed {
		<-done
	}
}

// markable says p may be taken as equal by a mark: a valid product whose
// rows only create or update (see updatesOnly).
func markable(p *catalog.Product) bool {
	return p.Valid() && updatesOnly(p)
}

// filesReplaced says plan deleted product files: those an image's new
// content replaced.
func filesReplaced(plan *Plan) bool {
	for _, pp := range plan.Products {
		for _, ip := range pp.Images() {
			if ip.Replaces != "" {
				return true
			}
		}
	}
	return false
}

// imagesUnchanged says the images of pp, if any, were all found in the
// account as they are: its mark's files are the account's.
func imagesUnchanged(pp *ProductPlan) bool {
	for _, ip := range pp.Images() {
		if ip.Action != engine.Unchanged {
			return false
		}
	}
	return true
}

// dayZero is the day a mark's day is counted from.
var dayZero = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// dayNumber is the number of t's day from dayZero.
func dayNumber(t time.Time) uint64 {
	return uint64(max(0, t.UTC().Sub(dayZero)/(24*time.Hour)))
}

// date is a day as a filter gives it.
func date(t time.Time) string { return t.Format(wire.FilterDateLayout) }

// A mark is, as the state holds it: markVersion; its day (a uvarint,
// days from dayZero); the sum (16 bytes); flags (markArchived,
// markFilesKnown); the product's id, as an idPack packs it; the count of
// its variants' ids and those, in the file's order; the count of its
// files' ids and those.
const (
	markVersion    = 1
	markArchived   = 1
	markFilesKnown = 2
)

// mark is a mark read: its ids as packed, each list of them whole.
type mark struct {
	day               uint64
	sum               []byte
	flags             byte
	product           []byte
	variants, files   []byte
	nVariants, nFiles int
}

// parseMark reads a mark, false if v is not one whole.
func parseMark(v []byte) (mk mark, ok bool) {
	if len(v) < 1 || v[0] != markVersion {
		return mark{}, false
	}
	day, n := binary.Uvarint(v[1:])
	if n <= 0 || len(v) < 1+n+len(contentSum{})+1 {
		return mark{}, false
	}
	v = v[1+n:]
	mk = mark{day: day, sum: v[:len(contentSum{})], flags: v[len(contentSum{})]}
	v = v[len(contentSum{})+1:]
	if mk.product, v, ok = packedID(v); !ok {
		return mark{}, false
	}
	if mk.variants, mk.nVariants, v, ok = packedIDs(v); !ok || mk.nVariants == 0 {
		return mark{}, false
	}
	if mk.files, mk.nFiles, v, ok = packedIDs(v); !ok || len(v) > 0 {
		return mark{}, false
	}
	return mk, true
}

// packedIDs splits a count of ids and the ids packed at the start of b
// from the rest.
func packedIDs(b []byte) (ids []byte, count int, rest []byte, ok bool) {
	c, n := binary.Uvarint(b)
	if n <= 0 || c > uint64(len(b)) {
		return nil, 0, nil, false
	}
	rest = b[n:]
	for range c {
		if _, rest, ok = packedID(rest); !ok {
			return nil, 0, nil, false
		}
	}
	return b[n : len(b)-len(rest)], int(c), rest, true
}

// eachPackedID calls fn with each id of ids, whole (see packedIDs).
func eachPackedID(ids []byte, fn func(raw []byte)) {
	for len(ids) > 0 {
		raw, rest, _ := packedID(ids)
		fn(raw)
		ids = rest
	}
}

// appendMark appends the mark of product pp, found equal to the
// account's on day (from dayZero), and false when one cannot be made (an
// id unknown); ids is room for its variants' ids.
func appendMark(b []byte, day uint64, sum contentSum, pp *ProductPlan, ids *[]api.ID) ([]byte, bool) {
	lp := pp.Live
	if m, ok := appendSameMark(b, day, sum, pp); ok {
		return m, true
	}
	*ids = (*ids)[:0]
	var tmp VariantPlan
	for j := range pp.P.Variants {
		id, known := pp.variantID(j)
		if !known || !pp.skippedEqual && pp.variant(j, &tmp).Action() != engine.Unchanged {
			return b, false
		}
		*ids = append(*ids, id)
	}
	return writeMark(b, day, sum, liveFlags(lp), lp.ID, *ids, lp.FileIDs)
}

// liveFlags are a mark's flags of live product lp.
func liveFlags(lp *LiveProduct) (flags byte) {
	if lp.Archived {
		flags |= markArchived
	}
	if lp.FilesKnown {
		flags |= markFilesKnown
	}
	return flags
}

// appendSameMark is appendMark for a product the snapshot found equal to
// the account's (every variant unchanged, their ids packed in the
// snapshot's pack: copied as they are packed); false for another.
func appendSameMark(b []byte, day uint64, sum contentSum, pp *ProductPlan) ([]byte, bool) {
	lp, n := pp.Live, len(pp.P.Variants)
	if lp.same == nil || pp.plain != unchangedPlain && !pp.skippedEqual || n == 0 || lp.ID == "" || slices.Contains(lp.FileIDs, "") {
		return b, false
	}
	refs := lp.same.refs[lp.first : int(lp.first)+n]
	if slices.Contains(refs, 0) {
		return b, false
	}
	b = binary.AppendUvarint(markHead(b, day, sum, liveFlags(lp), lp.ID), uint64(n))
	for _, ref := range refs {
		b = append(b, lp.same.ids.packed(ref)...)
	}
	return appendIDList(b, lp.FileIDs), true
}

// unchangedPlain is ProductPlan.plain for every variant unchanged.
var unchangedPlain = uint8(slices.Index(statuses, engine.Unchanged) + 1)

// writeMark appends a mark of its parts, false when an id is empty or
// there are no variants.
func writeMark(b []byte, day uint64, sum contentSum, flags byte, product api.ID, variants, files []api.ID) ([]byte, bool) {
	if product == "" || len(variants) == 0 || slices.Contains(variants, "") || slices.Contains(files, "") {
		return b, false
	}
	return appendIDList(appendIDList(markHead(b, day, sum, flags, product), variants), files), true
}

// markHead appends the head of a mark: the version, day, sum, flags and
// the product's id.
func markHead(b []byte, day uint64, sum contentSum, flags byte, product api.ID) []byte {
	b = binary.AppendUvarint(append(b, markVersion), day)
	return appendPackedID(append(append(b, sum[:]...), flags), product)
}

// appendIDList appends the count of ids and each packed.
func appendIDList(b []byte, ids []api.ID) []byte {
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = appendPackedID(b, id)
	}
	return b
}

// olderCount counts the account's variants and tags, and its product
// files when files, created before day, as "VARIANTS TAGS FILES" ("-" for
// files not counted): the variants as those the account holds (total; -1
// to read it) less those created since, which are few, and which an index
// finds at once where counting the others walks them all. reads are
// those it took.
func olderCount(ctx context.Context, c *api.Client, day string, total int, files bool) (counted string, reads int, err error) {
	t, err := time.Parse(wire.FilterDateLayout, day)
	if err != nil {
		return "", 0, err
	}
	since, before := api.And(api.Where(wire.CreatedAt, ">=", t)), api.And(api.Where(wire.CreatedAt, "<", t))
	count := func(what string, n *int, read func() (int, error)) {
		if err == nil {
			reads++
			if *n, err = read(); err != nil {
				err = fmt.Errorf("counting the account's %s: %w", what, err)
			}
		}
	}
	if total < 0 {
		count("variants", &total, func() (int, error) { return c.Variants.Total(ctx, nil) })
	}
	var newer, tags, fileCount int
	count("variants", &newer, func() (int, error) { return c.Variants.Total(ctx, &api.ListOptions{Filter: since}) })
	count("tags", &tags, func() (int, error) { return c.ProductTags.Total(ctx, &api.ListOptions{Filter: before}) })
	filesCounted := "-"
	if files {
		count("product files", &fileCount, func() (int, error) { return c.ProductFiles.Total(ctx, &api.ListOptions{Filter: before}) })
		filesCounted = strconv.Itoa(fileCount)
	}
	if err != nil {
		return "", reads, err
	}
	return fmt.Sprintf("%d %d %s", total-newer, tags, filesCounted), reads, nil
}

// olderChanged says why the account's variants and tags created before
// the day the last incremental import counted them from are not as many
// as it counted then ("" when they are), of an account of total variants;
// reads are those it took.
func (m *Marks) olderChanged(ctx context.Context, c *api.Client, total int) (why string, reads int, err error) {
	got, err := m.db.IDs(ctx, m.checkScope, []string{checkKey})
	if err != nil {
		return "", 0, err
	}
	day, counted, ok := strings.Cut(got[checkKey], " ")
	if !ok {
		return "the last incremental import did not count the account's records", 0, nil
	}
	now, reads, err := olderCount(ctx, c, day, total, m.files)
	if err != nil {
		return "", reads, err
	}
	m.checked = ""
	if now != counted {
		return fmt.Sprintf("the account holds %s (variants, tags, product files) created before %s, where the last incremental import counted %s: some were deleted since",
			now, day, counted), reads, nil
	}
	next := m.countDay()
	if day != next {
		// Counted now, from the day the next import counts from: the
		// account's size is known already, which after this import's
		// writes would be counted again. What is written meanwhile is
		// newer, or a deletion, which lowers the next count below this.
		n, more, err := olderCount(ctx, c, next, total, m.files)
		if reads += more; err != nil {
			return "", reads, err
		}
		now = n
	}
	m.checked = next + " " + now
	return "", reads, nil
}

// countDay is the day this import counts the account's older records
// from, for the next one to find deletions by: the day before its own (a
// day early, for the service's time zone).
func (m *Marks) countDay() string {
	return date(m.day.AddDate(0, 0, -1))
}

// Save writes the marks of the products plan found equal to the
// account's, of today (those its marks settled too: nothing changed them
// since their marks' days, as of this import's reads), with the marks of
// other imports' products, then counts the account's variants and tags
// created before the day before this one, for the next incremental import
// to find deletions by, unless it counted them as it began (see
// olderChanged) and deleted nothing (reads are those it took). Marks
// that were not read (the account held nothing to compare with) are left
// as they are.
func (m *Marks) Save(ctx context.Context, c *api.Client, plan *Plan) (reads int, err error) {
	if !m.loaded {
		return 0, nil
	}
	today := dayNumber(m.day)
	var buf []byte
	var ids []api.ID
	err = m.db.ReplaceEntries(ctx, m.scope, func(add func(k, v []byte)) {
		for _, kv := range m.kept {
			add(kv[0], kv[1])
		}
		for i, pp := range plan.Products {
			if m.sum(int32(i)) == (contentSum{}) || !pp.foundEqual() || pp.Live == nil || !imagesUnchanged(pp) {
				continue
			}
			var ok bool
			if buf, ok = appendMark(buf[:0], today, m.sums[i], pp, &ids); ok {
				add([]byte(pp.P.Key), buf)
			}
		}
	})
	if err != nil {
		return 0, err
	}
	return m.saveCount(ctx, c, plan)
}

// saveCount counts the account's variants and tags created before the
// day before this one (see Save).
func (m *Marks) saveCount(ctx context.Context, c *api.Client, plan *Plan) (reads int, err error) {
	day := m.countDay()
	products, variants := plan.Summary()
	counted, found := strings.CutPrefix(m.checked, day+" ")
	if !found || products[engine.Deleted]+variants[engine.Deleted] > 0 || filesReplaced(plan) {
		// Counted again: the count it began with would stand (what is
		// deleted meanwhile lowers the next count below it, as it
		// should), but not when this import deleted some itself.
		if counted, reads, err = olderCount(ctx, c, day, -1, m.files); err != nil {
			return reads, err
		}
	}
	return reads, m.db.PutIDs(ctx, m.checkScope, map[string]string{checkKey: day + " " + counted})
}

// newMarks are the marks of in's products for an incremental import (nil
// for another), summed under what else decides how they are read and
// planned: the mapping, the mode, the sheets and header row.
func (x *importer) newMarks(in *Input) *Marks {
	if !x.Incremental || x.State == nil {
		return nil
	}
	prefix := fmt.Appendf(nil, "marks\x00%s\x00%q\x00%d\x00%t\x00", x.Mode, in.Sheets, x.Mapping.Source.HeaderRow, x.NoImages)
	return newMarkSet(x.State, x.Scope, in.Products, append(prefix, x.MappingText...), time.Now(), !x.NoImages)
}

// saveMarks starts saving the marks of an incremental import that ended
// (see Marks.Save), beside the results file, and returns what waits for
// it. Marks not saved cost the next import a whole comparison, not this
// one its outcome: a failure is a warning.
func (x *importer) saveMarks(ctx context.Context, plan *Plan) (wait func()) {
	if x.marks == nil || x.DryRun || ctx.Err() != nil || x.fatal != nil {
		return func() {}
	}
	done := make(chan error, 1)
	go func() {
		_, err := x.marks.Save(ctx, x.Client, plan)
		done <- err
	}()
	return func() {
		if err := <-done; err != nil {
			x.Logger.Warn("could not keep what this import found for the next incremental one, which will compare the whole file; the import itself is complete", "err", err)
		}
	}
}

// sayMarks reports what the marks settled.
func (x *importer) sayMarks(rep *Report) {
	m := x.marks
	if m == nil {
		if x.Incremental {
			rep.Incremental = &IncrementalReport{Whole: "there is no state of an earlier import to compare with"}
		}
		return
	}
	rep.Incremental = &IncrementalReport{Marked: m.Settled, Since: m.Since, Whole: m.GaveUp}
	switch {
	case m.GaveUp != "":
		x.Progress.Say("compared the whole file with the account: %s", m.GaveUp)
	case m.Settled > 0:
		x.Progress.Say("%s unchanged in the file and in the account since %s: not read", plural.Count(m.Settled, "product"), m.Since)
	}
}
