package sandbox

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"lading/api/wire"
)

// record is one JSON object of a request, decoded with UseNumber.
type record = map[string]any

// recErr is a validation failure of one write record. [B.1]
type recErr struct {
	field, msg string
}

func (e *recErr) Error() string { return e.msg }

func fieldErr(field, format string, a ...any) *recErr {
	return &recErr{field: field, msg: fmt.Sprintf(format, a...)}
}

// under places err, a field error of a record read as a whole (field
// "value", "value is required"), where the record sits in a write
// (prefix "links.Variants[0].links.AttributeOptions[1]."): its field and
// its message, which name the field first, begin with prefix. Other
// errors are returned as they are.
func under(prefix string, err error) error {
	if re, ok := err.(*recErr); ok {
		return &recErr{field: prefix + re.field, msg: prefix + re.msg}
	}
	return err
}

// scalar turns a JSON scalar into its string form. ok is false for
// objects and arrays; null gives "" and present=false.
func scalar(v any) (s string, present, ok bool) {
	switch x := v.(type) {
	case nil:
		return "", false, true
	case string:
		return x, true, true
	case json.Number:
		return x.String(), true, true
	case bool:
		if x {
			return "1", true, true
		}
		return "0", true, true
	}
	return "", true, false
}

// strField reads an optional scalar field of rec as a string.
func strField(rec record, key, path string) (s string, present bool, err error) {
	v, has := rec[key]
	if !has {
		return "", false, nil
	}
	s, present, ok := scalar(v)
	if !ok {
		return "", false, fieldErr(path+key, "%s%s must be a string or a number, not %s", path, key, kindOf(v))
	}
	return s, present, nil
}

// intField reads an optional integer field given as a number or a numeric
// string.
func intField(rec record, key, path string) (n int64, present bool, err error) {
	s, present, err := strField(rec, key, path)
	if err != nil || !present {
		return 0, present, err
	}
	n, perr := parseInt(s)
	if perr != nil {
		return 0, true, fieldErr(path+key, "%s%s must be a whole number, got %q", path, key, s)
	}
	return n, true, nil
}

// parseInt accepts "12", "12.0" and 12 but not "12.5".
func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("not a whole number: %q", s)
	}
	return int64(f), nil
}

// numericField reads an optional decimal field (weight, cost, price) and
// keeps it as written.
func numericField(rec record, key, path string) (s string, present bool, err error) {
	s, present, err = strField(rec, key, path)
	if err != nil || !present || s == "" {
		return s, present, err
	}
	if _, perr := strconv.ParseFloat(strings.TrimSpace(s), 64); perr != nil {
		return "", true, fieldErr(path+key, "%s%s must be a number, got %q", path, key, s)
	}
	return strings.TrimSpace(s), true, nil
}

// flag reports whether v is the write flag 1 (1, "1" or true).
func flag(v any) bool {
	s, present, ok := scalar(v)
	return ok && present && strings.TrimSpace(s) == "1"
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

// linkSet is a record's links object, checked by linksOf (each of its
// entries is an array of objects) where it is, not copied: the sandbox
// checks millions of records' links on a load.
type linkSet map[string]any

// linksOf returns the links object of rec, checked; an absent links or an
// empty array (how empty links serialise) gives none (nil, read as
// empty).
func linksOf(rec record, path string) (linkSet, error) {
	v, has := rec[wire.KeyLinks]
	if !has || v == nil {
		return nil, nil
	}
	if arr, ok := v.([]any); ok && len(arr) == 0 {
		return nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fieldErr(path+"links", "%slinks must be an object of arrays, not %s", path, kindOf(v))
	}
	for k, lv := range obj {
		arr, ok := lv.([]any)
		if !ok {
			return nil, fieldErr(path+"links."+k, "%slinks.%s must be an array, not %s", path, k, kindOf(lv))
		}
		for i, e := range arr {
			if _, ok := e.(map[string]any); !ok {
				return nil, fieldErr(fmt.Sprintf("%slinks.%s[%d]", path, k, i),
					"%slinks.%s[%d] must be an object, not %s", path, k, i, kindOf(e))
			}
		}
	}
	return linkSet(obj), nil
}

// of returns the records linked as kind.
func (l linkSet) of(kind string) []record {
	arr, _ := l[kind].([]any)
	if len(arr) == 0 {
		return nil
	}
	recs := make([]record, len(arr))
	for i, e := range arr {
		recs[i] = e.(map[string]any)
	}
	return recs
}

// first returns the first record linked as kind, if any.
func (l linkSet) first(kind string) (record, bool) {
	arr, _ := l[kind].([]any)
	if len(arr) == 0 {
		return nil, false
	}
	return arr[0].(map[string]any), true
}

// has reports whether any record is linked as kind.
func (l linkSet) has(kind string) bool {
	arr, _ := l[kind].([]any)
	return len(arr) > 0
}

// idField reads a record id (number or numeric string).
func idField(rec record, path string) (id int64, present bool, err error) {
	s, present, err := strField(rec, "id", path)
	if err != nil || !present {
		return 0, present, err
	}
	id, perr := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if perr != nil || id <= 0 {
		return 0, true, fieldErr(path+"id", "%sid must be a positive whole number, got %q", path, s)
	}
	return id, true, nil
}

// linkIDs reads the ids of a links array.
func linkIDs(recs []record, path string) ([]int64, error) {
	ids := make([]int64, 0, len(recs))
	for i, r := range recs {
		p := fmt.Sprintf("%s[%d].", path, i)
		id, present, err := idField(r, p)
		if err != nil {
			return nil, err
		}
		if !present {
			return nil, fieldErr(p+"id", "%sid is required", p)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// idLinks renders ids as a links array [{"id":"..."}].
func idLinks(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = map[string]any{"id": itoa(id)}
	}
	return out
}

// nullable renders a NULL column as JSON null.
func nullable(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
