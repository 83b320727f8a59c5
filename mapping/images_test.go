package mapping

import (
	"reflect"
	"strings"
	"testing"
)

const imagesMapping = `group:
  key: Handle
  role: {expr: 'col("SKU") == "" ? "product" : "both"'}
product:
  name: Title
variant:
  sku: SKU
images:
  - column: Image Src
    alt: Image Alt Text
    position: Image Position
  - {column: Gallery, split: "|", optional: true}
  - {column: Variant Image, variant: true}
  - {expr: 'Extra == "" ? [] : ["media/" + Extra, "media/back-" + Extra]'}
`

// TestImages: each entry of images: gives a row's images: a column, a
// list split on its separator, an expression's list, with alt text and
// positions; variant entries only on a row with a variant; empty cells
// none.
func TestImages(t *testing.T) {
	header := []string{"Handle", "Title", "SKU", "Image Src", "Image Alt Text", "Image Position", "Gallery", "Variant Image", "Extra"}
	p := program(t, imagesMapping, header...)
	for _, tc := range []struct {
		name  string
		cells []string
		want  []Image
	}{
		{"a variant row", []string{"tee", "Tee", "TEE-S", "https://cdn/a.jpg", "Front", "1", "https://cdn/g1.jpg | https://cdn/g2.jpg", "https://cdn/s.jpg", "x.png"}, []Image{
			{Source: "https://cdn/a.jpg", Column: "Image Src", Alt: "Front", Position: 1},
			{Source: "https://cdn/g1.jpg", Column: "Gallery"},
			{Source: "https://cdn/g2.jpg", Column: "Gallery"},
			{Source: "https://cdn/s.jpg", Column: "Variant Image", Variant: true},
			{Source: "media/x.png", Column: "Extra"},
			{Source: "media/back-x.png", Column: "Extra"},
		}},
		{"an image-only row", []string{"tee", "", "", "https://cdn/b.jpg", "", "2", "", "https://cdn/ignored.jpg", ""}, []Image{
			{Source: "https://cdn/b.jpg", Column: "Image Src", Position: 2},
		}},
		{"no images", []string{"mug", "Mug", "MUG", "", "", "", "", "", ""}, nil},
	} {
		r := eval(t, p, tc.cells...)
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %v", tc.name, r.Errors)
		}
		if len(r.Images) == 0 && tc.want == nil {
			continue
		}
		if !reflect.DeepEqual(r.Images, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, r.Images, tc.want)
		}
	}
}

// TestImageErrors: a value that cannot be read as images fails its image,
// not the row.
func TestImageErrors(t *testing.T) {
	p := program(t, "group:\n  key: K\nproduct:\n  name: K\nimages:\n  - {column: I, position: P}\n", "K", "I", "P")
	r := eval(t, p, "k", "https://cdn/a.jpg", "first")
	if len(r.Errors) != 0 || len(r.Images) != 1 || r.Images[0].Err == "" || r.Images[0].Column != "P" || r.Images[0].Source != "first" {
		t.Errorf("errors %v, images %+v; want the image failed, naming column P", r.Errors, r.Images)
	}
}

// TestImagesSection: what the section refuses, with the place in the
// mapping file; an optional column the file lacks maps nothing.
func TestImagesSection(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"images: Image Src\n", "images must be a list"},
		{"images:\n  - {alt: A}\n", "images[0]: give the column (or expr)"},
		{"images:\n  - {column: I, size: 2}\n", `images[0]: unknown key "size"`},
		{"images:\n  - {column: I, variant: maybe}\n", "images[0].variant must be true or false"},
	} {
		_, err := Parse("m.yaml", []byte("group:\n  key: K\nproduct:\n  name: K\n"+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "m.yaml:") {
			t.Errorf("%q: %v, want %q with its place", tc.src, err, tc.want)
		}
	}
	m, err := Parse("m.yaml", []byte("group:\n  key: K\nproduct:\n  name: K\nimages:\n  - Photo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Compile("in.csv", []string{"K", "Foto"}); err == nil || !strings.Contains(err.Error(), `"Photo"`) {
		t.Errorf("an unknown image column: %v", err)
	}
	p := program(t, "group:\n  key: K\nproduct:\n  name: K\nimages:\n  - {column: Photo, optional: true}\n", "K")
	if r := eval(t, p, "k"); len(r.Images) != 0 || len(r.Errors) != 0 {
		t.Errorf("an absent optional column: %+v", r)
	}
}

// TestJoinedImages: with a join, the variant entries read the joined
// file, the others the main one.
func TestJoinedImages(t *testing.T) {
	m, err := Parse("m.yaml", []byte(`group:
  key: ID
product:
  name: Name
images:
  - Photos
  - {column: Photo, variant: true}
join:
  file: v.csv
  key: Product ID
variant:
  sku: Ref
`))
	if err != nil {
		t.Fatal(err)
	}
	mp, err := m.Compile("p.csv", []string{"ID", "Name", "Photos"})
	if err != nil {
		t.Fatal(err)
	}
	jp, err := mp.CompileJoin("v.csv", []string{"Product ID", "Ref", "Photo"})
	if err != nil {
		t.Fatal(err)
	}
	var r Row
	mp.Eval([]string{"1", "Mug", "http://x/a.jpg,http://x/b.jpg"}, &r)
	if len(r.Images) != 2 || r.Images[1].Source != "http://x/b.jpg" || r.Images[0].Variant {
		t.Errorf("main row images %+v", r.Images)
	}
	jp.Eval([]string{"1", "MUG-R", "http://x/red.jpg"}, &r)
	if len(r.Images) != 1 || r.Images[0].Source != "http://x/red.jpg" || !r.Images[0].Variant {
		t.Errorf("joined row images %+v", r.Images)
	}
}

// TestInitStarterImages: a starter mapping maps the columns that speak
// of images (not their alt texts, positions or ids), and parses; without
// such a column its images section is a commented example.
func TestInitStarterImages(t *testing.T) {
	header := []string{"Reference", "Product Name", "Photo URL", "Image alt", "Image Position", "Gallery images", "Price"}
	_, text := Init(header, "odd.csv")
	s := string(text)
	for _, want := range []string{`- {column: "Photo URL", split: ",", optional: true}`, `- {column: "Gallery images", split: ",", optional: true}`} {
		if !strings.Contains(s, want) {
			t.Errorf("starter lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `column: "Image alt"`) || strings.Contains(s, `column: "Image Position"`) {
		t.Errorf("starter maps an image's alt text or position as images:\n%s", s)
	}
	m, err := Parse("odd.yaml", text)
	if err != nil || len(m.Images) != 2 {
		t.Fatalf("%v, %d images entries\n%s", err, len(m.Images), s)
	}
	if _, err := m.Compile("odd.csv", header); err != nil {
		t.Fatal(err)
	}
	_, text = Init([]string{"Reference", "Product Name"}, "plain.csv")
	if m, err := Parse("plain.yaml", text); err != nil || len(m.Images) != 0 || !strings.Contains(string(text), "# - {column: <column>") {
		t.Errorf("without image columns: %v, %+v\n%s", err, m, text)
	}
}
