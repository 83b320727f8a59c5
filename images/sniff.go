package images

import (
	"bytes"
	"net/http"
	"strings"
)

// sniffLen is how many first bytes of a file decide its type.
const sniffLen = 512

// Sniff names the type of content from its first bytes (at most
// sniffLen are looked at), and reports whether it is an image or a PDF.
// The web's rules decide (http.DetectContentType), with SVG, AVIF, HEIC
// and TIFF, which they leave out, recognised too.
func Sniff(head []byte) (typ string, ok bool) {
	head = head[:min(len(head), sniffLen)]
	switch {
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return "image/tiff", true
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "avif", "avis":
			return "image/avif", true
		case "heic", "heix", "heim", "heis", "mif1", "msf1":
			return "image/heic", true
		}
	}
	typ = http.DetectContentType(head)
	switch {
	case strings.HasPrefix(typ, "image/"), typ == "application/pdf":
		return typ, true
	case isSVG(head):
		return "image/svg+xml", true
	}
	return typ, false
}

// isSVG reports whether head starts an SVG document: an <svg element
// after an optional byte-order mark, XML declaration, comments and
// doctype.
func isSVG(head []byte) bool {
	s := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<svg")):
			return len(s) > 4 && (s[4] == ' ' || s[4] == '>' || s[4] == '\n' || s[4] == '\t' || s[4] == '\r')
		case bytes.HasPrefix(s, []byte("<?")), bytes.HasPrefix(s, []byte("<!DOCTYPE")), bytes.HasPrefix(s, []byte("<!doctype")):
			end := bytes.IndexByte(s, '>')
			if end < 0 {
				return false
			}
			s = s[end+1:]
		case bytes.HasPrefix(s, []byte("<!--")):
			end := bytes.Index(s, []byte("-->"))
			if end < 0 {
				return false
			}
			s = s[end+3:]
		default:
			return false
		}
	}
}
