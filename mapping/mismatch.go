package mapping

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	hdr "lading/mapping/header"
)

// MismatchError is a mapping that does not fit the header of a file:
// the errors of binding it to the header (Errs, which it unwraps to),
// and the header, for Suggest to say which layout the file has instead.
type MismatchError struct {
	File   string
	Header []string
	Errs   ErrorList
}

func (e *MismatchError) Error() string { return e.Errs.Error() }
func (e *MismatchError) Unwrap() error { return e.Errs }

// mismatch is the error of b's errors.
func (b *binder) mismatch() error {
	return &MismatchError{File: b.file, Header: b.header, Errs: b.errs}
}

// Suggestion is the layout a file has that the template given for it
// does not fit (see Suggest).
type Suggestion struct {
	// Detection is the template whose layout the file has, and why.
	Detection
	// Renamed is set when that is the template given, whose columns the
	// file names otherwise (Detection.Columns): a mapping that names them
	// as the file does fits it (Init writes one).
	Renamed bool
}

// Suggest finds, for a file with header that the template given (its
// name; "" for a mapping file of the user's) does not fit, the template
// whose layout the file has. ok is false when the header has no layout
// lading knows, or has the given template's with its columns named as
// the template names them (then the mapping's errors say what is wrong).
func Suggest(given string, header []string) (s Suggestion, ok bool) {
	d, ok := Recognise(header)
	if !ok {
		return Suggestion{}, false
	}
	if !strings.EqualFold(d.Template, strings.TrimSuffix(strings.TrimSpace(given), ".yaml")) {
		return Suggestion{Detection: d}, true
	}
	for name, col := range d.Columns {
		if hdr.Loose(name) == hdr.Loose(col) {
			delete(d.Columns, name) // the template finds it already
		}
	}
	if len(d.Columns) == 0 {
		return Suggestion{}, false
	}
	return Suggestion{Detection: d, Renamed: true}, true
}

// Renames says, for a Renamed suggestion, which of the file's columns
// the template names otherwise, for people: "Qty for quantity, Location
// for warehouse"; "" for another.
func (s Suggestion) Renames() string {
	if !s.Renamed {
		return ""
	}
	names := make([]string, 0, len(s.Columns))
	for _, name := range slices.Sorted(maps.Keys(s.Columns)) {
		names = append(names, fmt.Sprintf("%s for %s", s.Columns[name], name))
	}
	return strings.Join(names, ", ")
}
