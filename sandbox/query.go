package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"lading/api/wire"
)

// colKind says how a filter or sort compares a column.
type colKind int

const (
	kText colKind = iota // text comparison
	kInt                 // integer column or expression
	kNum                 // decimal kept as text: compared as a number
	kDate                // timestamp: a YYYY-MM-DD value compares the date part
)

// column maps a filterable attribute to its SQL expression.
type column struct {
	expr string
	kind colKind
}

// listQuery is a parsed listing request.
type listQuery struct {
	page, size int
	where      string // "" or " AND (...)"
	args       []any
	order      string // "ORDER BY ..."
}

// parseListing reads page_size, page_num, filter and sort of a listing
// envelope and checks them against the limits and the resource's
// filterable and sortable attributes.
func parseListing(env record, resource string, cols map[string]column) (*listQuery, *apiError) {
	q := &listQuery{page: 1, size: wire.DefaultPageSize}
	if n, present, err := intField(env, wire.KeyPageSize, ""); err != nil {
		return nil, badRequest("%s", err)
	} else if present {
		if n > wire.MaxPageSize {
			return nil, badRequest("page_size %d is larger than the largest page size, %d: ask for at most %d records per page",
				n, wire.MaxPageSize, wire.MaxPageSize)
		}
		if n < 1 {
			return nil, badRequest("page_size %d must be at least 1", n)
		}
		q.size = int(n)
	}
	if n, present, err := intField(env, wire.KeyPageNum, ""); err != nil {
		return nil, badRequest("%s", err)
	} else if present {
		if n < 0 {
			return nil, badRequest("page_num %d must not be negative", n)
		}
		if n > 0 {
			q.page = int(n)
		}
	}
	if f, has := env[wire.KeyFilter]; has && f != nil {
		fb := filterBuilder{resource: resource, cols: cols}
		where, err := fb.build(f)
		if err != nil {
			return nil, err
		}
		q.where = " AND " + where
		q.args = fb.args
	}
	order, err := parseSort(env[wire.KeySort], resource, cols)
	if err != nil {
		return nil, err
	}
	q.order = order
	return q, nil
}

// filterBuilder turns a filter statement into SQL. [Spec] Limits 2-3, [A.8]
type filterBuilder struct {
	resource     string
	cols         map[string]column
	args         []any
	conditionals int
}

func (fb *filterBuilder) build(f any) (string, *apiError) {
	if arr, ok := f.([]any); ok {
		return "", badRequest("a listing carries at most one filter: filter must be one object, not an array of %d", len(arr))
	}
	obj, ok := f.(map[string]any)
	if !ok {
		return "", badRequest("filter must be an object like {\"and\": [{\"attribute\": \"value\"}]}, not %s", kindOf(f))
	}
	if len(obj) == 0 {
		return "", badRequest("filter is empty: give an \"and\" or \"or\" conditional")
	}
	for k := range obj {
		if k != wire.CondAnd && k != wire.CondOr {
			return "", badRequest("filter key %q is not a conditional: use \"and\" or \"or\"", k)
		}
	}
	return fb.conditionals2SQL(obj, "filter")
}

// conditionals2SQL combines the and/or conditionals of obj with AND:
// (every condition of "and") AND (at least one condition of "or").
func (fb *filterBuilder) conditionals2SQL(obj map[string]any, path string) (string, *apiError) {
	var parts []string
	for _, op := range []string{wire.CondAnd, wire.CondOr} {
		v, has := obj[op]
		if !has {
			continue
		}
		fb.conditionals++
		if fb.conditionals > wire.MaxConditionals {
			return "", badRequest("a filter statement holds at most %d and/or conditionals; %s adds one more: split the request",
				wire.MaxConditionals, path+"."+op)
		}
		arr, ok := v.([]any)
		if !ok {
			return "", badRequest("%s.%s must be an array of conditions, not %s", path, op, kindOf(v))
		}
		if len(arr) == 0 {
			return "", badRequest("%s.%s holds no condition", path, op)
		}
		subs := make([]string, 0, len(arr))
		for i, c := range arr {
			s, err := fb.condition(c, fmt.Sprintf("%s.%s[%d]", path, op, i))
			if err != nil {
				return "", err
			}
			subs = append(subs, s)
		}
		if in, ok := inList(op, subs); ok {
			parts = append(parts, "("+in+")")
			continue
		}
		parts = append(parts, "("+strings.Join(subs, " "+strings.ToUpper(op)+" ")+")")
	}
	return "(" + strings.Join(parts, " AND ") + ")", nil
}

// inList writes an "or" of conditions that each compare the same
// attribute for equality ({"or": [{"sku": "A"}, {"sku": "B"}]}, how
// clients look up many SKUs at once) as one IN: the same records, found
// through the attribute's index rather than by testing every record.
func inList(op string, subs []string) (string, bool) {
	expr, ok := strings.CutSuffix(subs[0], " = ?")
	if op != wire.CondOr || len(subs) < 2 || !ok {
		return "", false
	}
	for _, s := range subs[1:] {
		if s != subs[0] {
			return "", false
		}
	}
	return expr + " IN (" + strings.TrimSuffix(strings.Repeat("?,", len(subs)), ",") + ")", true
}

// condition turns one condition, {"attribute": value} with an optional
// "operation", into SQL, adding its value to fb.args.
func (fb *filterBuilder) condition(c any, path string) (string, *apiError) {
	obj, err := conditionObject(c, path)
	if err != nil {
		return "", err
	}
	op, err := conditionOperation(obj, path)
	if err != nil {
		return "", err
	}
	attr, err := conditionAttribute(obj, path)
	if err != nil {
		return "", err
	}
	col, ok := fb.cols[attr]
	if !ok || !slices.Contains(wire.Filterable[fb.resource], attr) {
		return "", badRequest("%s: %s cannot be filtered by %q; filterable attributes: %s",
			path, fb.resource, attr, strings.Join(wire.Filterable[fb.resource], ", "))
	}
	val, present, ok := scalar(obj[attr])
	if !ok {
		return "", badRequest("%s: the value of %s must be a string or a number, not %s", path, attr, kindOf(obj[attr]))
	}
	if !present {
		return nullComparison(col, op, path)
	}
	expr, arg := comparand(col, op, val)
	if attr == wire.CreatedAt && op == ">=" && len(val) == len(wire.FilterDateLayout) {
		// A record is updated as it is made, and after: one made since
		// a day was updated since, which the index of updated_at finds
		// among few (see timeIndexes).
		fb.args = append(fb.args, arg, arg)
		return "(" + expr + " >= ? AND " + fb.cols[wire.UpdatedAt].expr + " >= ?)", nil
	}
	fb.args = append(fb.args, arg)
	sqlOp := op
	if op == "!=" {
		sqlOp = "<>"
	}
	return expr + " " + sqlOp + " ?", nil
}

// conditionObject checks that the condition c is an object that does not
// nest a conditional.
func conditionObject(c any, path string) (map[string]any, *apiError) {
	obj, ok := c.(map[string]any)
	if !ok {
		return nil, badRequest("%s must be an object like {\"sku\": \"A-1\"}, not %s", path, kindOf(c))
	}
	_, hasAnd := obj[wire.CondAnd]
	_, hasOr := obj[wire.CondOr]
	if hasAnd || hasOr {
		// [lading] wire: conditions do not nest; a statement holds at most
		// the two conditionals "and" and "or" at its top.
		return nil, badRequest("%s nests a conditional; conditions do not nest: a filter holds at most %d conditionals, "+
			"\"and\" and \"or\", at its top", path, wire.MaxConditionals)
	}
	return obj, nil
}

// conditionOperation reads the condition's operation; "=" when it has none.
func conditionOperation(obj map[string]any, path string) (string, *apiError) {
	v, has := obj[wire.KeyOperation]
	if !has {
		return "=", nil
	}
	s, _, ok := scalar(v)
	if !ok || !slices.Contains(wire.Operations, s) {
		return "", badRequest("%s: operation %v is not one of %s", path, v, strings.Join(wire.Operations, " "))
	}
	return s, nil
}

// conditionAttribute reads the one attribute the condition compares.
func conditionAttribute(obj map[string]any, path string) (string, *apiError) {
	var attrs []string
	for k := range obj {
		if k != wire.KeyOperation {
			attrs = append(attrs, k)
		}
	}
	if len(attrs) != 1 {
		slices.Sort(attrs)
		return "", badRequest("%s must name exactly one attribute, found %d (%s)", path, len(attrs), strings.Join(attrs, ", "))
	}
	return attrs[0], nil
}

// nullComparison compares col with null: only = and != can.
func nullComparison(col column, op, path string) (string, *apiError) {
	switch op {
	case "=":
		return col.expr + " IS NULL", nil
	case "!=":
		return col.expr + " IS NOT NULL", nil
	}
	return "", badRequest("%s: operation %s cannot compare with null", path, op)
}

// comparand gives the SQL expression of col and the argument val becomes
// for comparing them by op as col's kind says.
func comparand(col column, op, val string) (string, any) {
	expr := col.expr
	var arg any = val
	switch col.kind {
	case kInt:
		if n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64); err == nil {
			arg = n
		} else if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			arg = f
		}
	case kNum:
		if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			expr = "CAST(" + expr + " AS REAL)"
			arg = f
		}
	case kDate:
		// A timestamp is on or after a day, or before it, exactly when it
		// compares so with the day's text: the column's index serves.
		if len(val) == len(wire.FilterDateLayout) && op != ">=" && op != "<" {
			expr = "substr(" + expr + ",1,10)"
		}
	}
	return expr, arg
}

// parseSort reads `sort: [{attr: "asc"|"desc"}, ...]`; ties break by id.
func parseSort(v any, resource string, cols map[string]column) (string, *apiError) {
	var keys []string
	if v != nil {
		arr, ok := v.([]any)
		if !ok {
			return "", badRequest("sort must be an array like [{\"id\": \"desc\"}], not %s", kindOf(v))
		}
		for i, e := range arr {
			obj, ok := e.(map[string]any)
			if !ok || len(obj) != 1 {
				return "", badRequest("sort[%d] must be an object of one attribute and its direction", i)
			}
			for attr, d := range obj {
				col, known := cols[attr]
				if !known || !slices.Contains(wire.Sortable[resource], attr) {
					return "", badRequest("sort[%d]: %s cannot be sorted by %q; sortable attributes: %s",
						i, resource, attr, strings.Join(wire.Sortable[resource], ", "))
				}
				dir, _, _ := scalar(d)
				dir = strings.ToLower(dir)
				if dir != wire.SortAsc && dir != wire.SortDesc {
					return "", badRequest("sort[%d]: direction of %s must be %q or %q, not %v", i, attr, wire.SortAsc, wire.SortDesc, d)
				}
				expr := col.expr
				if col.kind == kNum {
					expr = "CAST(" + expr + " AS REAL)"
				}
				keys = append(keys, expr+" "+strings.ToUpper(dir))
			}
		}
	}
	keys = append(keys, "id ASC")
	return "ORDER BY " + strings.Join(keys, ", "), nil
}

// readIDs reads the {id} records of a detail envelope.
func readIDs(env record, resource string) ([]int64, *apiError) {
	v, has := env[resource]
	if !has {
		return nil, badRequest("a detail read needs %q: [{\"id\": ...}]", resource)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, badRequest("%s must be an array of {\"id\": ...}, not %s", resource, kindOf(v))
	}
	if len(arr) > wire.MaxPageSize {
		return nil, badRequest("%s names %d records; a read returns at most %d", resource, len(arr), wire.MaxPageSize)
	}
	ids := make([]int64, 0, len(arr))
	for i, e := range arr {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, badRequest("%s[%d] must be an object {\"id\": ...}", resource, i)
		}
		id, present, err := idField(obj, fmt.Sprintf("%s[%d].", resource, i))
		if err != nil {
			return nil, badRequest("%s", err)
		}
		if !present {
			return nil, badRequest("%s[%d].id is required", resource, i)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// existingIDs keeps the ids of table that belong to account, in order.
func (t *txn) existingIDs(table string, account int64, ids []int64) ([]int64, error) {
	have := map[int64]bool{}
	if err := t.eachRow("SELECT id FROM "+table+" WHERE account_id = ? AND id IN "+inIDs, []any{account, idList(ids)}, func(rows *row) error {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		have[id] = true
		return nil
	}); err != nil {
		return nil, err
	}
	var out []int64
	seen := map[int64]bool{}
	for _, id := range ids {
		if have[id] && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, nil
}
