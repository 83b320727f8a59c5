package images

import (
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Source is where an image is read: a URL (http or https) or a path under
// the images folder.
type Source struct {
	// Key is the source as it is fetched and remembered: the URL, or the
	// cleaned path with forward slashes. Two cells naming one image give
	// one key.
	Key string
	// URL is set for a URL, Path for a local file.
	URL  *url.URL
	Path string
}

// Local reports whether the source is a file under the images folder.
func (s Source) Local() bool { return s.URL == nil }

// Parse reads a source as a catalog's cell gives it (trimmed): an http or
// https URL ("//host/path", as some exports write them, is https), or a
// path relative to the images folder, where a leading slash is the
// folder's root (Magento names its media files so) and backslashes
// separate folders too. Anything else is an *Error.
func Parse(s string) (Source, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Source{}, &Error{Source: s, Reason: "no address or path given", Advice: "give an http or https address, or a path under the images folder"}
	}
	if strings.HasPrefix(s, "//") {
		s = "https:" + s
	}
	if scheme, _, ok := strings.Cut(s, ":"); ok && isScheme(scheme) {
		return parseURL(s, strings.ToLower(scheme))
	}
	clean, err := cleanPath(strings.ReplaceAll(s, `\`, "/"))
	if err != "" {
		return Source{}, &Error{Source: s, Reason: err, Advice: "give a path under the images folder"}
	}
	key := clean
	if scheme, _, ok := strings.Cut(clean, ":"); ok && isScheme(scheme) {
		// As "./x:y" it parses back to the same path, not to a URL.
		key = "./" + clean
	}
	return Source{Key: key, Path: clean}, nil
}

// cleanPath is p relative to the images folder, its parts trimmed of
// spaces, "." and empty parts left out and ".." taken back; or why p
// names no file in the folder.
func cleanPath(p string) (string, string) {
	var parts []string
	for _, c := range strings.Split(p, "/") {
		switch c = strings.TrimSpace(c); c {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				return "", "the path leaves the images folder"
			}
			parts = parts[:len(parts)-1]
		default:
			if strings.ContainsRune(c, 0) {
				return "", "the path holds a NUL character"
			}
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return "", "the path names no file"
	}
	return strings.Join(parts, "/"), ""
}

// isScheme reports whether s is a URL scheme rather than a drive letter
// ("C:\images\a.jpg") or the start of a path.
func isScheme(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

func parseURL(s, scheme string) (Source, error) {
	if scheme != "http" && scheme != "https" {
		return Source{}, &Error{Source: s, Reason: scheme + ": addresses are not read",
			Advice: "give an http or https address, or a path under the images folder"}
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return Source{}, &Error{Source: s, Reason: "not a valid address", Advice: "correct the address in the file"}
	}
	u.Fragment, u.RawFragment = "", ""
	u.RawQuery = escapeSpaces(u.RawQuery)
	return Source{Key: u.String(), URL: u}, nil
}

// escapeSpaces percent-encodes the white space of a URL's query, which
// url.Parse keeps as it is given ("?a b" where a browser sends "?a%20b"):
// the key then parses back to itself (Parse trims what it reads), and the
// request line holds no space.
func escapeSpaces(q string) string {
	if !strings.ContainsFunc(q, unicode.IsSpace) {
		return q
	}
	var b strings.Builder
	for q != "" {
		r, n := utf8.DecodeRuneInString(q)
		if !unicode.IsSpace(r) {
			b.WriteString(q[:n]) // a byte that is not UTF-8 too, as it is
		} else {
			for _, c := range []byte(q[:n]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		q = q[n:]
	}
	return b.String()
}

// fileName is the name a file read from s is uploaded under: the last
// part of its path, with an extension that fits typ (the sniffed type)
// when it has none, or one of another type.
func fileName(s Source, typ string) string {
	base := path.Base(s.Path)
	if s.URL != nil {
		base = path.Base(s.URL.Path)
	}
	base = strings.Map(func(r rune) rune {
		if r < ' ' || r == '/' || r == '\\' || r == 0x7f {
			return -1
		}
		return r
	}, base)
	if base == "." || base == "/" || base == "" {
		base = "image"
	}
	ext := path.Ext(base)
	if t := mime.TypeByExtension(strings.ToLower(ext)); ext != "" && sameType(t, typ) {
		return base
	}
	if exts := extensions[typ]; exts != "" {
		return base + exts
	}
	return base
}

// sameType compares two MIME types without their parameters.
func sameType(a, b string) bool {
	a, _, _ = strings.Cut(a, ";")
	b, _, _ = strings.Cut(b, ";")
	if a == "image/jpg" {
		a = "image/jpeg"
	}
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// extensions are the extensions given to files whose names have none of
// their type.
var extensions = map[string]string{
	"image/jpeg": ".jpg", "image/png": ".png", "image/gif": ".gif", "image/webp": ".webp",
	"image/bmp": ".bmp", "image/x-icon": ".ico", "image/svg+xml": ".svg", "image/avif": ".avif",
	"image/heic": ".heic", "image/tiff": ".tif", "application/pdf": ".pdf",
}
