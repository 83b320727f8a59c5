// The XLSX package: a ZIP archive whose parts are read with their sizes
// checked first and their XML tokens bounded, so that no part can expand
// to more than Limits allow.

package source

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// oleMagic starts old .xls workbooks and password-protected .xlsx files.
var oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// xlsxPackage is an open XLSX file: its ZIP directory, parts by name.
type xlsxPackage struct {
	name   string // path as given to Open
	zr     *zip.ReadCloser
	parts  map[string]*zip.File // by lower-case name, "/" separated
	limits Limits
}

// openPackage opens path as a ZIP archive and checks that it is a
// workbook whose parts all fit the limits, before unzipping any of them.
func openPackage(path string, limits Limits) (*xlsxPackage, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, notZipError(path, err)
	}
	p := &xlsxPackage{name: path, zr: zr, parts: make(map[string]*zip.File, len(zr.File)), limits: limits}
	for _, f := range zr.File {
		p.parts[strings.ToLower(strings.ReplaceAll(f.Name, `\`, "/"))] = f
	}
	if err := p.check(); err != nil {
		zr.Close()
		return nil, err
	}
	return p, nil
}

// maxMetaPart bounds the parts that describe a workbook (relationships,
// workbook, styles, content types): real ones hold kilobytes.
const maxMetaPart = 64 << 20

// check refuses a part whose directory entry says it unzips to more than
// MaxPartSize, and a ZIP archive that is not a workbook.
func (p *xlsxPackage) check() error {
	for _, f := range p.zr.File {
		if f.UncompressedSize64 > uint64(p.limits.MaxPartSize) {
			return fmt.Errorf("%s: part %s of the workbook unzips to %s, more than the %s a part may hold (%w): "+
				"the file is damaged or built to exhaust memory; if it is a genuine workbook, raise the limit",
				p.name, f.Name, byteSize(f.UncompressedSize64), byteSize(uint64(p.limits.MaxPartSize)), ErrPartLimit)
		}
	}
	if f := p.part("[Content_Types].xml"); f != nil {
		if err := p.checkMeta(f); err != nil {
			return err
		}
	}
	if p.part("xl/workbook.xml") != nil || p.part("_rels/.rels") != nil {
		return nil
	}
	if mt := p.part("mimetype"); mt != nil && mt.UncompressedSize64 < 256 {
		if b, err := p.readSmall(mt); err == nil && strings.Contains(string(b), "opendocument.spreadsheet") {
			return fmt.Errorf("%s: this is an OpenDocument spreadsheet (.ods), not an XLSX workbook: save it as .xlsx or .csv", p.name)
		}
	}
	return fmt.Errorf("%s: this is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml): "+
		"if the catalog is inside it, unzip it and import that file; otherwise open it in your spreadsheet program and save it as .xlsx", p.name)
}

// notZipError explains why path could not be opened as a ZIP archive.
func notZipError(path string, err error) error {
	if !errors.Is(err, zip.ErrFormat) && !errors.Is(err, zip.ErrAlgorithm) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%s: %w", path, err)
	}
	head := make([]byte, len(oleMagic))
	if f, oerr := os.Open(path); oerr == nil {
		n, _ := io.ReadFull(f, head)
		head = head[:n]
		f.Close()
	}
	switch {
	case bytes.Equal(head, oleMagic):
		return fmt.Errorf("%s: this is an old Excel .xls workbook or a password-protected .xlsx: save it in Excel as .xlsx without a password, or as .csv", path)
	case bytes.HasPrefix(head, zipMagic):
		return fmt.Errorf("%s: the workbook is damaged (%v): open it in your spreadsheet program and save it again as .xlsx", path, err)
	}
	return fmt.Errorf("%s: this is not an XLSX workbook: an .xlsx file is a ZIP archive and this one is not; "+
		"if it holds CSV text, name it .csv or set format: csv in the mapping", path)
}

func (p *xlsxPackage) Close() error { return p.zr.Close() }

// part returns the part named name (case-insensitive), or nil.
func (p *xlsxPackage) part(name string) *zip.File {
	return p.parts[strings.ToLower(strings.TrimPrefix(name, "/"))]
}

// readSmall reads a part known to be small.
func (p *xlsxPackage) readSmall(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// checkMeta refuses a part describing the workbook that is larger than
// such parts ever are.
func (p *xlsxPackage) checkMeta(f *zip.File) error {
	if f.UncompressedSize64 <= maxMetaPart {
		return nil
	}
	return fmt.Errorf("%s: part %s of the workbook unzips to %s, more than the %s such a part ever needs: "+
		"the file is damaged or built to exhaust memory; open it in your spreadsheet program and save it again",
		p.name, f.Name, byteSize(f.UncompressedSize64), byteSize(maxMetaPart))
}

// xmlPart is one part of the package being read as XML tokens.
type xmlPart struct {
	pkg   *xlsxPackage
	name  string
	rc    io.ReadCloser
	ahead *readAhead // reading rc ahead, for a data part
	toks  *xmlTokens
	// at, when set, says where in the part reading is, for messages:
	// `sheet "Products", row 12`.
	at func() string
}

// openXML opens the part name for reading as XML; a part that is not in the
// package is an error naming it. Parts other than data (a worksheet, the
// shared strings) must be no larger than maxMetaPart.
func (p *xlsxPackage) openXML(name string, data bool) (*xmlPart, error) {
	f := p.part(name)
	if f == nil {
		return nil, fmt.Errorf("%s: the workbook has no part %s: it is damaged; open it in your spreadsheet program and save it again", p.name, name)
	}
	if !data {
		if err := p.checkMeta(f); err != nil {
			return nil, err
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: part %s: %v: the workbook is damaged or uses a compression Excel does not; open it in your spreadsheet program and save it again", p.name, f.Name, err)
	}
	return newXMLPart(p, f.Name, rc, data), nil
}

// newXMLPart reads rc, the part name of p, as XML tokens; a data part's
// bytes are unzipped and guarded ahead of its tokens, on a goroutine of
// their own (see readAhead).
func newXMLPart(p *xlsxPackage, name string, rc io.ReadCloser, data bool) *xmlPart {
	x := &xmlPart{pkg: p, name: name, rc: rc}
	var r io.Reader = &markupGuard{r: rc, max: p.limits.MaxCellSize}
	if data {
		x.ahead = newReadAhead(r)
		r = x.ahead
	}
	x.toks = newXMLTokens(r)
	return x
}

func (x *xmlPart) Close() error {
	if x.ahead != nil {
		x.ahead.Close()
	}
	return x.rc.Close()
}

// next returns the next token as it was read, valid until the next; its
// error names the file and the part.
func (x *xmlPart) next() (*token, error) {
	tok, err := x.toks.read()
	if err != nil {
		return nil, x.fail(err)
	}
	return tok, nil
}

// fail turns a read or XML error into one that names the file and the part
// and says what to do; io.EOF is returned as is.
func (x *xmlPart) fail(err error) error {
	if err == io.EOF {
		return err
	}
	where := x.pkg.name + ": part " + x.name
	if x.at != nil {
		where = fmt.Sprintf("%s: %s (part %s)", x.pkg.name, x.at(), x.name)
	}
	var long *tooLongError
	if errors.As(err, &long) {
		return fmt.Errorf("%s: %s longer than %s (%w): "+
			"the file is damaged or built to exhaust memory; if it is a genuine workbook, raise the limit",
			where, long.what, byteSize(uint64(long.max)), ErrCellLimit)
	}
	return fmt.Errorf("%s: %v: the workbook is damaged; open it in your spreadsheet program and save it again", where, err)
}

// text reads character data up to the end of the element named end and
// appends it to buf. In rich text (a shared string's si, an inline
// string's is) only the text of t elements counts, phonetic runs (rPh)
// left out. The text may grow to limit bytes.
func (x *xmlPart) text(buf []byte, end string, rich bool, limit int) ([]byte, error) {
	inT, inPhonetic := 0, 0
	for {
		t, err := x.next()
		if err == io.EOF {
			return buf, x.fail(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return buf, err
		}
		switch t.kind {
		case textToken:
			if rich && (inT == 0 || inPhonetic > 0) {
				continue
			}
			if len(buf)+len(t.text) > limit {
				return buf, x.fail(&tooLongError{what: "a cell's text is", max: limit})
			}
			buf = append(buf, t.text...)
		case startToken:
			switch t.name.Local {
			case "t":
				inT++
			case "rPh":
				inPhonetic++
			}
		case endToken:
			switch t.name.Local {
			case end:
				return buf, nil
			case "t":
				inT = max(inT-1, 0)
			case "rPh":
				inPhonetic = max(inPhonetic-1, 0)
			}
		}
	}
}

// byteSize renders n bytes for a message: "1 MiB", "4.5 GiB", "1,000 bytes".
func byteSize(n uint64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift {
			v := float64(n) / float64(uint64(1)<<u.shift)
			if n%(1<<u.shift) == 0 {
				return fmt.Sprintf("%d %s", n>>u.shift, u.name)
			}
			return fmt.Sprintf("%.1f %s", v, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// relationship is one entry of a part's relationships.
type relationship struct{ id, typ, target string }

// maxListed bounds the sheets and relationships read from a workbook.
const maxListed = 1 << 16

// relationships reads the relationships of the part named of ("" for the
// package's own): the part _rels/<base>.rels beside it. A part without
// relationships has none.
func (p *xlsxPackage) relationships(of string) ([]relationship, error) {
	name := path.Join(path.Dir(of), "_rels", path.Base(of)+".rels")
	if of == "" {
		name = "_rels/.rels"
	}
	if p.part(name) == nil {
		return nil, nil
	}
	var rels []relationship
	err := p.eachElement(name, func(local string, attrs []xml.Attr) error {
		if local != "Relationship" {
			return nil
		}
		if len(rels) == maxListed {
			return fmt.Errorf("more than %d relationships", maxListed)
		}
		rels = append(rels, relationship{attr(attrs, "Id"), attr(attrs, "Type"), attr(attrs, "Target")})
		return nil
	})
	return rels, err
}

// eachElement calls fn with the local name and the attributes of every
// start element of the part name.
func (p *xlsxPackage) eachElement(name string, fn func(local string, attrs []xml.Attr) error) error {
	x, err := p.openXML(name, false)
	if err != nil {
		return err
	}
	defer x.Close()
	for {
		t, err := x.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if t.kind == startToken {
			if err := fn(t.name.Local, t.attrs); err != nil {
				return x.fail(err)
			}
		}
	}
}

// resolve returns the part a relationship of the part from points to.
func resolve(from, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return path.Join(path.Dir(from), target)
}

// relTarget returns the part the first relationship of rels whose type
// ends with suffix points to, or def.
func relTarget(rels []relationship, from, suffix, def string) string {
	for _, r := range rels {
		if strings.HasSuffix(r.typ, suffix) {
			return resolve(from, r.target)
		}
	}
	return def
}

// attr is the value of the attribute name among attrs, or "".
func attr(attrs []xml.Attr, name string) string {
	for _, a := range attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}
