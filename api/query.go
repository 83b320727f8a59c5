package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"lading/api/wire"
)

// Rules a query can break, as named in QueryError.Rule.
const (
	RuleResource     = "resource"     // the resource has no listing
	RuleFilterable   = "filterable"   // the attribute is not filterable on the resource
	RuleOperation    = "operation"    // the comparison operator is not one of wire.Operations
	RuleValue        = "value"        // the value cannot be sent
	RuleConditional  = "conditional"  // an unknown conditional or condition type
	RuleConditionals = "conditionals" // more than wire.MaxConditionals conditionals
	RuleNesting      = "nesting"      // a nesting the wire cannot express
	RuleEmpty        = "empty"        // a conditional with no conditions
	RuleSortable     = "sortable"     // the attribute is not sortable on the resource
	RulePageSize     = "page_size"    // the page size is out of range
)

// QueryError is a listing request refused before anything is sent: it names
// the rule broken, the attribute if any, and what is allowed.
type QueryError struct {
	Resource string
	Part     string // "filter", "sort" or "page"
	Rule     string // one of the Rule constants
	Attr     string
	Detail   string
	Allowed  []string
}

func (e *QueryError) Error() string {
	var b strings.Builder
	b.WriteString("api: ")
	b.WriteString(e.Part)
	if e.Resource != "" {
		b.WriteString(" on ")
		b.WriteString(e.Resource)
	}
	b.WriteString(": ")
	b.WriteString(e.Detail)
	b.WriteString(" (rule: ")
	b.WriteString(e.Rule)
	b.WriteString(")")
	if len(e.Allowed) > 0 {
		b.WriteString("; allowed: ")
		b.WriteString(strings.Join(e.Allowed, ", "))
	}
	return b.String()
}

// Sort orders a listing by one attribute.
type Sort struct {
	Attr string
	Desc bool
}

// ListOptions shape a listing.
type ListOptions struct {
	// PageSize is the number of records a page asks for; 0 means
	// wire.MaxPageSize (fewest requests).
	PageSize int
	// Page is the first page to read; 0 means 1.
	Page int
	// MaxPages stops after this many pages; 0 reads to the last page.
	MaxPages int
	// Sort orders the listing; attributes must be in wire.Sortable.
	Sort []Sort
	// Filter selects records; attributes must be in wire.Filterable.
	Filter *Filter
	// Reuse reads each page into the memory of the one before: a page,
	// and every value it holds, is valid only until the loop goes on to
	// the next, whose data it then holds. For loops that copy what they
	// keep: they allocate a fraction as much.
	Reuse bool
	// Ahead is how many of the pages after the one the loop works on are
	// read meanwhile, each on a goroutine of its own (0: one page at a
	// time): the service answers them side by side, and their decoding
	// overlaps the loop's work. For loops that read a listing to its end:
	// one that stops early may have had that many more pages read. The
	// loop's page stays valid until it goes on (with Reuse, each page read
	// ahead has memory of its own).
	Ahead int
}

// Validate checks the options against the wire rules for resource.
func (o *ListOptions) Validate(resource string) error {
	_, err := o.body(resource, 1)
	return err
}

// firstPage is the first page a listing reads.
func (o *ListOptions) firstPage() int {
	if o == nil {
		return 1
	}
	return max(1, o.Page)
}

// within says a listing reads page num, as far as MaxPages goes.
func (o *ListOptions) within(num int) bool {
	return o == nil || o.MaxPages == 0 || num < o.firstPage()+o.MaxPages
}

func (o *ListOptions) pageSize() int {
	if o == nil || o.PageSize == 0 {
		return wire.MaxPageSize
	}
	return o.PageSize
}

// body builds the read envelope for page pageNum.
func (o *ListOptions) body(resource string, pageNum int) ([]byte, error) {
	if _, ok := wire.Filterable[resource]; !ok {
		return nil, &QueryError{Resource: resource, Part: "listing", Rule: RuleResource, Detail: fmt.Sprintf("%s has no listing", resource), Allowed: wire.Listable}
	}
	size := o.pageSize()
	if size < 1 || size > wire.MaxPageSize {
		return nil, &QueryError{Resource: resource, Part: "page", Rule: RulePageSize, Detail: fmt.Sprintf("page size %d is out of range 1..%d", size, wire.MaxPageSize)}
	}
	env := map[string]any{
		wire.KeyAction:   wire.ActionRead,
		wire.KeyPageNum:  pageNum,
		wire.KeyPageSize: size,
	}
	if o == nil {
		return marshal(env)
	}
	if len(o.Sort) > 0 {
		sorts := make([]map[string]string, 0, len(o.Sort))
		for _, s := range o.Sort {
			if !slices.Contains(wire.Sortable[resource], s.Attr) {
				return nil, &QueryError{Resource: resource, Part: "sort", Rule: RuleSortable, Attr: s.Attr,
					Detail: fmt.Sprintf("attribute %q is not sortable on %s", s.Attr, resource), Allowed: wire.Sortable[resource]}
			}
			dir := wire.SortAsc
			if s.Desc {
				dir = wire.SortDesc
			}
			sorts = append(sorts, map[string]string{s.Attr: dir})
		}
		env[wire.KeySort] = sorts
	}
	if o.Filter != nil {
		st, err := o.Filter.compile(resource)
		if err != nil {
			return nil, err
		}
		env[wire.KeyFilter] = json.RawMessage(st.marshal())
	}
	return marshal(env)
}
