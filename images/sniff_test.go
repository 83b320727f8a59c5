package images

import (
	"strings"
	"testing"
)

func TestSniff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, head, typ string
		ok              bool
	}{
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF", "image/jpeg", true},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00", "image/png", true},
		{"gif", "GIF89a\x01\x00", "image/gif", true},
		{"webp", "RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp", true},
		{"pdf", "%PDF-1.7\n", "application/pdf", true},
		{"tiff", "II*\x00\x08\x00\x00\x00", "image/tiff", true},
		{"avif", "\x00\x00\x00\x1cftypavif\x00\x00", "image/avif", true},
		{"heic", "\x00\x00\x00\x18ftypheic\x00\x00", "image/heic", true},
		{"svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>", "image/svg+xml", true},
		{"svg after a prolog", "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<!DOCTYPE svg>\n<svg\n>", "image/svg+xml", true},
		{"html page", "<!DOCTYPE html><html><body><img src=a.jpg>", "text/html; charset=utf-8", false},
		{"xml that is not svg", "<?xml version=\"1.0\"?><feed>", "text/xml; charset=utf-8", false},
		{"svgz-like text", "<svgfoo>", "text/plain; charset=utf-8", false},
		{"json error", `{"error":"not found"}`, "text/plain; charset=utf-8", false},
		{"zip", "PK\x03\x04", "application/zip", false},
		{"mp4 video", "\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom", "video/mp4", false},
	} {
		typ, ok := Sniff([]byte(tc.head))
		if typ != tc.typ || ok != tc.ok {
			t.Errorf("%s: Sniff = %q, %v; want %q, %v", tc.name, typ, ok, tc.typ, tc.ok)
		}
	}
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte("<svg>"))
	f.Add([]byte("<?xml<!--"))
	f.Add([]byte("\x00\x00\x00\x00ftypavif"))
	f.Fuzz(func(t *testing.T, head []byte) {
		typ, ok := Sniff(head)
		if ok && !strings.HasPrefix(typ, "image/") && typ != "application/pdf" {
			t.Fatalf("Sniff took %q as an image", typ)
		}
	})
}
