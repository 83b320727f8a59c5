package api

import (
	"bytes"
	"fmt"
	"lading/internal/jsonstr"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// ID identifies a record. It decodes from a JSON string or number (null is
// ""), and encodes as a JSON string of digits, as the service writes ids.
type ID string

// UnmarshalJSON accepts "123", 123 and null.
func (id *ID) UnmarshalJSON(b []byte) error {
	s, err := scalar(b, false)
	if err != nil {
		return fmt.Errorf("id: %w", err)
	}
	*id = ID(s)
	return nil
}

// MarshalJSON writes the id as a JSON string.
func (id ID) MarshalJSON() ([]byte, error) {
	return jsonstr.Append(nil, string(id)), nil
}

// String returns the id as text.
func (id ID) String() string { return string(id) }

// Flex is a scalar decoded tolerantly: the service sends numbers and flags
// as strings ("100", "0"), but a string, number, bool or null is accepted.
// Null becomes "", true "1" and false "0" (the service's flag values); a
// number keeps its JSON text. An object or array keeps its compact JSON text
// so that an unexpected shape never fails a whole page.
type Flex string

// UnmarshalJSON accepts any JSON value; see [Flex].
func (f *Flex) UnmarshalJSON(b []byte) error {
	s, err := scalar(b, true)
	if err != nil {
		return err
	}
	*f = Flex(s)
	return nil
}

// scalar is the text of the JSON value b as Flex (composite) or ID reads
// it, copied out of b.
func scalar(b []byte, composite bool) (string, error) {
	r := recordDecoder{b: b}
	s, err := r.text(composite)
	if err == nil {
		err = r.end()
	}
	return strings.Clone(s), err
}

// MarshalJSON writes the value as a JSON string.
func (f Flex) MarshalJSON() ([]byte, error) {
	return jsonstr.Append(nil, string(f)), nil
}

// String returns the text.
func (f Flex) String() string { return string(f) }

// Int parses the value as an integer; "" is 0. A decimal with a zero
// fraction ("3.0000") is accepted.
func (f Flex) Int() (int64, error) {
	s := strings.TrimSpace(string(f))
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x != float64(int64(x)) {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return int64(x), nil
}

// Float parses the value as a number; "" is 0.
func (f Flex) Float() (float64, error) {
	s := strings.TrimSpace(string(f))
	if s == "" {
		return 0, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return x, nil
}

// Bool reports whether the value is a set flag: "1" or "true".
func (f Flex) Bool() bool {
	s := strings.TrimSpace(string(f))
	return s == "1" || strings.EqualFold(s, "true")
}

// String returns a pointer to s, for the optional fields of write records.
func String(s string) *string { return &s }

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// marshal encodes v as JSON without HTML escaping (so ">=" stays readable
// in bodies and traces).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
