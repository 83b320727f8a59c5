package api

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	json "github.com/goccy/go-json"
)

// recordDecoder reads JSON kept whole and never changed again (an answer's
// body, or one record's JSON): the text of a field is a part of it, not a
// copy (only text with escapes is copied), so a record costs the values of
// its fields and no copy of its JSON.
type recordDecoder struct {
	b     []byte
	i     int
	arena *pageArena // where links are kept; nil for their own slices
}

func (r *recordDecoder) syntax(format string, a ...any) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", r.i, fmt.Sprintf(format, a...))
}

func (r *recordDecoder) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek is the next byte that is not white space, or 0 at the end.
func (r *recordDecoder) peek() byte {
	r.ws()
	if r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

func (r *recordDecoder) expect(c byte) error {
	if got := r.peek(); got != c {
		if got == 0 {
			return r.syntax("want %q, found the end", c)
		}
		return r.syntax("want %q, found %q", c, got)
	}
	r.i++
	return nil
}

// object calls member with each key of the object that comes next (the
// key's text valid during the call, the reader at its value), which must
// read the value.
func (r *recordDecoder) object(member func(key []byte) error) error {
	if err := r.expect('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		key, done, err := r.member(first)
		if err != nil || done {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
	}
}

// member moves to the next member of an object whose '{' was taken: it
// returns its key, the reader at its value, or done at the object's end
// (its '}' taken). first says no member was read yet.
func (r *recordDecoder) member(first bool) (key []byte, done bool, err error) {
	c := r.peek()
	if c == '}' {
		r.i++
		return nil, true, nil
	}
	if !first {
		if c != ',' {
			return nil, false, r.syntax("want ',' or '}' in an object, found %q", c)
		}
		r.i++
	}
	if key, err = r.str(); err != nil {
		return nil, false, err
	}
	if r.i < len(r.b) && r.b[r.i] == ':' {
		r.i++
		return key, false, nil
	}
	return key, false, r.expect(':')
}

// array calls elem for each element of the array that comes next.
func (r *recordDecoder) array(elem func() error) error {
	if err := r.expect('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		done, err := r.elem(first)
		if err != nil || done {
			return err
		}
		if err := elem(); err != nil {
			return err
		}
	}
}

// elem moves to the next element of an array whose '[' was taken; done is
// true at its end (its ']' taken). first says no element was read yet.
func (r *recordDecoder) elem(first bool) (done bool, err error) {
	c := r.peek()
	switch {
	case c == ']':
		r.i++
		return true, nil
	case first:
		return false, nil
	case c != ',':
		return false, r.syntax("want ',' or ']' in an array, found %q", c)
	}
	r.i++
	return false, nil
}

// str reads a string and returns its text: a part of the record, or a
// copy when it holds escapes.
func (r *recordDecoder) str() ([]byte, error) {
	if r.peek() != '"' {
		return nil, r.syntax("want a string")
	}
	start := r.i + 1
	j := start
	// Eight bytes at a time to the first that is a quote, a backslash or
	// a control character: most strings are plain text.
	for ; j+8 <= len(r.b); j += 8 {
		if m := specialBytes(binary.LittleEndian.Uint64(r.b[j:])); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			break
		}
	}
	for ; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '"':
			r.i = j + 1
			return r.b[start:j:j], nil
		case c == '\\':
			return r.escaped(start, j)
		case c < 0x20:
			return nil, r.syntax("a control character in a string")
		}
	}
	return nil, r.syntax("a string is not closed")
}

// specialBytes marks (with its top bit) each byte of x, eight bytes of a
// string, that is a quote, a backslash or below 0x20; the lowest mark is
// exact (a borrow can only mark bytes above the first).
func specialBytes(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ ('"' * ones)
	bs := x ^ ('\\' * ones)
	return ((q-ones)&^q | (bs-ones)&^bs | (x-0x20*ones)&^x) & highs
}

// escaped reads the rest of a string that has an escape at j and returns
// its text, unescaped into a copy.
func (r *recordDecoder) escaped(start, j int) ([]byte, error) {
	for ; j < len(r.b); j++ {
		if r.b[j] == '\\' {
			j++
			continue
		}
		if r.b[j] == '"' {
			r.i = j + 1
			out, err := unescape(make([]byte, 0, j-start), r.b[start:j])
			if err != nil {
				return nil, r.syntax("%v", err)
			}
			return out, nil
		}
	}
	return nil, r.syntax("a string is not closed")
}

// scalar reads a number, true, false or null and returns its text.
func (r *recordDecoder) scalar() []byte {
	start := r.i
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return r.b[start:r.i:r.i]
		}
		r.i++
	}
	return r.b[start:r.i:r.i]
}

// text reads a scalar as Flex and ID do: a string's text, a number as
// written, true and false as "1" and "0", null as "". composite says
// what an object or array becomes ("" when it is an error).
func (r *recordDecoder) text(composite bool) (string, error) {
	switch c := r.peek(); c {
	case '"':
		s, err := r.str()
		return view(s), err
	case '{', '[':
		start := r.i
		if err := r.skip(); err != nil {
			return "", err
		}
		if !composite {
			return "", fmt.Errorf("want a string, number, bool or null, got %.40s", r.b[start:r.i])
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, r.b[start:r.i]); err != nil {
			return "", err
		}
		return buf.String(), nil
	case 0:
		return "", r.syntax("want a value, found the end")
	}
	v := r.scalar()
	switch string(v) {
	case "null":
		return "", nil
	case "true":
		return "1", nil
	case "false":
		return "0", nil
	}
	if !isNumber(v) {
		return "", fmt.Errorf("want a string, number, bool or null, got %.40s", v)
	}
	return view(v), nil
}

// skip reads past the next value.
func (r *recordDecoder) skip() error {
	switch c := r.peek(); c {
	case '"':
		_, err := r.str()
		return err
	case '{':
		r.i++
		for first := true; ; first = false {
			_, done, err := r.member(first)
			if err != nil || done {
				return err
			}
			if err := r.skip(); err != nil {
				return err
			}
		}
	case '[':
		r.i++
		for first := true; ; first = false {
			done, err := r.elem(first)
			if err != nil || done {
				return err
			}
			if err := r.skip(); err != nil {
				return err
			}
		}
	case 0:
		return r.syntax("want a value, found the end")
	}
	switch v := r.scalar(); string(v) {
	case "null", "true", "false":
		return nil
	default:
		if !isNumber(v) {
			return r.syntax("want a value, found %.40q", v)
		}
	}
	return nil
}

// value reads past the next value and returns it, as it came.
func (r *recordDecoder) value() ([]byte, error) {
	r.ws()
	start := r.i
	if err := r.skip(); err != nil {
		return nil, err
	}
	return r.b[start:r.i:r.i], nil
}

// end checks that only white space is left (a NUL byte is not the end,
// though peek gives 0 for both).
func (r *recordDecoder) end() error {
	if r.ws(); r.i < len(r.b) {
		return r.syntax("more after the value")
	}
	return nil
}

// view is b as a string without copying it: b is part of a record's JSON,
// which is never changed.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// isNumber reports whether b is a JSON number.
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// unescape appends the text of the inside of a JSON string to buf.
func unescape(buf, s []byte) ([]byte, error) {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			if c < 0x20 {
				return buf, errors.New("a control character in a string")
			}
			buf = append(buf, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return buf, errors.New("a string ends in a backslash")
		}
		i += 2
		switch e := s[i-1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, n := hex4(s[i:])
			if n == 0 {
				return buf, errors.New("a bad \\u escape")
			}
			i += n
			if utf16.IsSurrogate(r) {
				if len(s) >= i+6 && s[i] == '\\' && s[i+1] == 'u' {
					if r2, m := hex4(s[i+2:]); m > 0 {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
							i += 2 + m
						}
					}
				}
				if utf16.IsSurrogate(r) {
					r = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return buf, fmt.Errorf("a bad escape \\%c", e)
		}
	}
	return buf, nil
}

// hex4 reads the 4 hex digits of a \u escape; n is 0 when they are not.
func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}

// A recordLayout is where the fields of a record type are, by JSON name:
// every field is an ID, a Flex or Links, and the type embeds RawRecord.
type recordLayout struct {
	names []string  // the fields' JSON names
	at    []fieldAt // where each of names is
	byLen [][]int   // the indexes of names of each length
	raw   uintptr   // offset of the RawRecord
	// slots give the index plus 1 of the one name of each slot of
	// slotOf (0: none, or more than one: byLen then says).
	slots [layoutSlots]uint8
}

// layoutSlots is how many slots a layout's names are spread over: a key
// finds the name it is exactly in one comparison, where most records'
// names share a length with some others (created_at, updated_at).
const layoutSlots = 256

// slotOf is the slot of a name or key: its length and its first and last
// bytes, mixed.
func slotOf(key []byte) int {
	if len(key) == 0 {
		return 0
	}
	return (len(key)*37 + int(key[0])*11 + int(key[len(key)-1])) % layoutSlots
}

type fieldAt struct {
	off  uintptr
	kind fieldKind
}

type fieldKind uint8

const (
	fieldID fieldKind = iota
	fieldFlex
	fieldLinks
)

var layouts sync.Map // reflect.Type -> *recordLayout

// layoutOf is the layout of the record type T.
func layoutOf[T any]() *recordLayout {
	t := reflect.TypeFor[T]()
	if l, ok := layouts.Load(t); ok {
		return l.(*recordLayout)
	}
	l := &recordLayout{raw: ^uintptr(0)}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == reflect.TypeFor[RawRecord]() {
			l.raw = f.Offset
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		at := fieldAt{off: f.Offset}
		switch f.Type {
		case reflect.TypeFor[ID]():
			at.kind = fieldID
		case reflect.TypeFor[Flex]():
			at.kind = fieldFlex
		case reflect.TypeFor[Links]():
			at.kind = fieldLinks
		default:
			panic(fmt.Sprintf("api: record %s has field %s of type %s: a record's fields are ID, Flex or Links", t, f.Name, f.Type))
		}
		for len(l.byLen) <= len(name) {
			l.byLen = append(l.byLen, nil)
		}
		l.byLen[len(name)] = append(l.byLen[len(name)], len(l.names))
		l.names, l.at = append(l.names, name), append(l.at, at)
	}
	l.fillSlots()
	if l.raw == ^uintptr(0) {
		panic(fmt.Sprintf("api: record %s does not embed RawRecord", t))
	}
	actual, _ := layouts.LoadOrStore(t, l)
	return actual.(*recordLayout)
}

// field is the field of key: its exact name, else one differing in case
// only (as encoding/json matches them). Names are looked up among those of
// the key's length: a few comparisons, no hashing.
func (l *recordLayout) field(key []byte) (fieldAt, bool) {
	if i := l.slots[slotOf(key)]; i > 0 && l.names[i-1] == string(key) {
		return l.at[i-1], true
	}
	if len(key) < len(l.byLen) {
		for _, i := range l.byLen[len(key)] {
			if l.names[i] == string(key) {
				return l.at[i], true
			}
		}
	}
	for i, n := range l.names {
		if strings.EqualFold(n, string(key)) {
			return l.at[i], true
		}
	}
	return fieldAt{}, false
}

// fillSlots gives each slot the index plus 1 of its name, where one name
// alone has it (and there are fewer than 255 names).
func (l *recordLayout) fillSlots() {
	if len(l.names) >= 255 {
		return
	}
	var count [layoutSlots]int
	for _, n := range l.names {
		count[slotOf([]byte(n))]++
	}
	for i, n := range l.names {
		if k := slotOf([]byte(n)); count[k] == 1 {
			l.slots[k] = uint8(i + 1)
		}
	}
}

// decodeRecordJSON decodes raw, the JSON of one record of type T, which it
// keeps as the record's RawRecord: raw must not change afterwards. The
// record's links are kept in arena (nil: slices of their own).
func decodeRecordJSON[T any](raw []byte, arena *pageArena) (*T, error) {
	r := &recordDecoder{b: raw, arena: arena}
	rec, err := decodeRecord[T](r, layoutOf[T]())
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// decodeRecord reads the record of type T, laid out as l, that comes next
// (nil for null), in one pass: its fields are parts of r's JSON, which it
// keeps, from the record's first byte to its last, as its RawRecord.
func decodeRecord[T any](r *recordDecoder, l *recordLayout) (*T, error) {
	switch r.peek() {
	case 'n':
		if v := r.scalar(); string(v) != "null" {
			return nil, r.syntax("want a record, found %.40q", v)
		}
		return nil, nil
	case '{':
	default:
		return nil, r.expect('{')
	}
	start := r.i
	r.i++
	rec := newRecord[T](r.arena)
	p := unsafe.Pointer(rec)
	for first := true; ; first = false {
		key, done, err := r.member(first)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		if err := r.field(p, l, key); err != nil {
			return nil, err
		}
	}
	(*RawRecord)(unsafe.Add(p, l.raw)).raw = r.b[start:r.i:r.i]
	return rec, nil
}

// field reads the value of the member key into the record at p, laid out
// as l: past it when the record has no such field.
func (r *recordDecoder) field(p unsafe.Pointer, l *recordLayout, key []byte) error {
	at, ok := l.field(key)
	if !ok {
		return r.skip()
	}
	if at.kind == fieldLinks {
		links, err := r.links()
		if err != nil {
			return err
		}
		*(*Links)(unsafe.Add(p, at.off)) = links
		return nil
	}
	s, err := r.text(at.kind == fieldFlex)
	if err != nil {
		if at.kind == fieldID {
			return fmt.Errorf("%s: id: %w", key, err)
		}
		return fmt.Errorf("%s: %w", key, err)
	}
	*(*string)(unsafe.Add(p, at.off)) = s
	return nil
}

// links reads a record's links: an object of arrays (a single object read
// as an array of one), or [] or null for none.
func (r *recordDecoder) links() (Links, error) {
	if none, err := r.noLinks(); none || err != nil {
		return nil, err
	}
	if err := r.expect('{'); err != nil {
		return nil, err
	}
	var own Links
	sets := r.arena.setRun(&own)
	for first := true; ; first = false {
		key, done, err := r.member(first)
		if err != nil {
			return nil, err
		}
		if done {
			return Links(sets.list()), nil
		}
		name := view(key)
		items, err := r.linkItems(name)
		if err != nil {
			return nil, err
		}
		setLinks(&sets, name, items)
	}
}

// noLinks reads links given as null or [], and tells whether they were; a
// non-empty array is an error. Anything else is left for links to read.
func (r *recordDecoder) noLinks() (bool, error) {
	switch r.peek() {
	case 'n':
		if v := r.scalar(); string(v) != "null" {
			return true, fmt.Errorf("links: want an object of arrays, got %.40s", v)
		}
		return true, nil
	case '[':
		n := 0
		if err := r.array(func() error { n++; return r.skip() }); err != nil {
			return true, err
		}
		if n > 0 {
			return true, errors.New("links: want an object of arrays, got a non-empty array")
		}
		return true, nil
	}
	return false, nil
}

// linkItems reads the value of the links of resource name: an array of
// links, a single link (an array of one), or null for none.
func (r *recordDecoder) linkItems(name string) ([]Link, error) {
	var own []Link
	switch r.peek() {
	case '{':
		l, err := r.link()
		if err != nil {
			return nil, fmt.Errorf("links.%s: %w", name, err)
		}
		items := r.arena.linkRun(&own)
		items.add(l)
		return items.list(), nil
	case '[':
		r.i++
		items := r.arena.linkRun(&own)
		for first := true; ; first = false {
			done, err := r.elem(first)
			if err != nil {
				return nil, fmt.Errorf("links.%s: %w", name, err)
			}
			if done {
				return items.list(), nil
			}
			l, err := r.link()
			if err != nil {
				return nil, fmt.Errorf("links.%s: %w", name, err)
			}
			items.add(l)
		}
	default:
		if v := r.scalar(); string(v) != "null" {
			return nil, fmt.Errorf("links.%s: want an array, got %.40s", name, v)
		}
		return nil, nil
	}
}

// link reads one entry of links: its id, type and quantity.
func (r *recordDecoder) link() (Link, error) {
	if l, ok := r.idLink(); ok {
		return l, nil
	}
	var l Link
	if err := r.expect('{'); err != nil {
		return l, err
	}
	for first := true; ; first = false {
		key, done, err := r.member(first)
		if err != nil || done {
			return l, err
		}
		var s string
		switch string(key) {
		case "id":
			s, err = r.text(false)
			l.ID = ID(s)
		case "type":
			s, err = r.text(false)
			l.Type = s
		case "quantity":
			s, err = r.text(true)
			l.Quantity = Flex(s)
		default:
			err = r.skip()
		}
		if err != nil {
			return l, err
		}
	}
}

// idLink reads a link of an id alone, {"id":"..."} without white space or
// escapes, as most links are; ok is false, and nothing read, for any other.
func (r *recordDecoder) idLink() (l Link, ok bool) {
	const open = `{"id":"`
	b := r.b[r.i:]
	if len(b) < len(open)+2 || string(b[:len(open)]) != open {
		return l, false
	}
	j := len(open)
	for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 {
		j++
	}
	if j+1 >= len(b) || b[j] != '"' || b[j+1] != '}' {
		return l, false
	}
	l.ID = ID(view(b[len(open):j:j]))
	r.i += j + 2
	return l, true
}
