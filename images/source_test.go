package images

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, key, path string
		url           bool
		err           string
	}{
		{in: " https://cdn.shopify.com/s/files/1/a.jpg?v=17 ", key: "https://cdn.shopify.com/s/files/1/a.jpg?v=17", url: true},
		{in: "http://example.com/a.png#top", key: "http://example.com/a.png", url: true},
		{in: "HTTPS://Example.com/A.png", key: "https://Example.com/A.png", url: true},
		{in: "//cdn.example.com/a.jpg", key: "https://cdn.example.com/a.jpg", url: true},
		{in: "https://h.example/a.jpg?name=a b\u00a0#x", key: "https://h.example/a.jpg?name=a%20b%C2%A0", url: true},
		{in: "https://h.example/a.jpg?\xff", key: "https://h.example/a.jpg?\xff", url: true},
		{in: "/m/h/mh01-gray_main.jpg", key: "m/h/mh01-gray_main.jpg", path: "m/h/mh01-gray_main.jpg"},
		{in: `media\shirts\front.jpg`, key: "media/shirts/front.jpg", path: "media/shirts/front.jpg"},
		{in: "./a/../b.jpg", key: "b.jpg", path: "b.jpg"},
		{in: `C:\images\a.jpg`, key: "C:/images/a.jpg", path: "C:/images/a.jpg"},
		{in: "../secret.jpg", err: "leaves the images folder"},
		{in: "a/../../secret.jpg", err: "leaves the images folder"},
		{in: "/", err: "names no file"},
		{in: " a / ./b.jpg ", key: "a/b.jpg", path: "a/b.jpg"},
		{in: "/img:2.jpg", key: "./img:2.jpg", path: "img:2.jpg"},
		{in: "file:///etc/passwd", err: "file: addresses are not read"},
		{in: "ftp://example.com/a.jpg", err: "ftp: addresses are not read"},
		{in: "data:image/png;base64,AAAA", err: "data: addresses are not read"},
		{in: "https://", err: "not a valid address"},
		{in: "  ", err: "no address or path"},
	} {
		s, err := Parse(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) = %+v, %v; want an error saying %q", tc.in, s, err, tc.err)
			}
		case err != nil:
			t.Errorf("Parse(%q): %v", tc.in, err)
		case s.Key != tc.key || s.Path != tc.path || (s.URL != nil) != tc.url || s.Local() == tc.url:
			t.Errorf("Parse(%q) = key %q path %q url %v; want %q %q %v", tc.in, s.Key, s.Path, s.URL, tc.key, tc.path, tc.url)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://a.b/c.jpg", "/m/a.jpg", "../x", "file:///x", `a\b`, "//h/p", "C:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			return
		}
		switch {
		case s.Key == "":
			t.Fatalf("Parse(%q) gave an empty key", in)
		case s.URL != nil && s.URL.Scheme != "http" && s.URL.Scheme != "https":
			t.Fatalf("Parse(%q) gave a %s URL", in, s.URL.Scheme)
		case s.URL == nil && (strings.HasPrefix(s.Path, "/") || s.Path == ".." || strings.HasPrefix(s.Path, "../")):
			t.Fatalf("Parse(%q) gave the path %q, outside the folder", in, s.Path)
		}
		again, err := Parse(s.Key)
		if err != nil || again.Key != s.Key {
			t.Fatalf("Parse(%q) = %q, whose key parses to %q, %v", in, s.Key, again.Key, err)
		}
	})
}

func TestFileName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, typ, want string }{
		{"https://cdn.shopify.com/s/files/1/products/tee.jpg?v=1", "image/jpeg", "tee.jpg"},
		{"https://cdn.example.com/tee.JPG", "image/jpeg", "tee.JPG"},
		{"https://cdn.example.com/tee.jpeg", "image/jpeg", "tee.jpeg"},
		{"https://cdn.example.com/tee", "image/png", "tee.png"},
		{"https://cdn.example.com/tee.php", "image/webp", "tee.php.webp"},
		{"https://cdn.example.com/", "image/gif", "image.gif"},
		{"https://cdn.example.com/Caf%C3%A9%20noir.png", "image/png", "Café noir.png"},
		{"m/h/mh01-gray_main.jpg", "image/jpeg", "mh01-gray_main.jpg"},
		{"docs/manual.pdf", "application/pdf", "manual.pdf"},
	} {
		s, err := Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := fileName(s, tc.typ); got != tc.want {
			t.Errorf("fileName(%q, %s) = %q, want %q", tc.in, tc.typ, got, tc.want)
		}
	}
}
