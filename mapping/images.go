package mapping

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// images reads the images: section. It lists where the rows name images, each entry a
// value (a column name, or a mapping with column, value or expr and
// split) with, beside the value's keys, the optional keys alt, position
// and variant:
//
//	images:
//	  - Image Src                             # one image a row
//	  - {column: Images, split: ","}          # a list of them
//	  - column: Image Src
//	    alt: Image Alt Text
//	    position: Image Position
//	  - {column: Variant Image, variant: true} # the row's variant's image
func (d *decoder) images(n ast.Node) []ImageSpec {
	var out []ImageSpec
	for i, item := range d.seq(n, "images") {
		w := fmt.Sprintf("images[%d]", i)
		spec := ImageSpec{Pos: nodePos(item)}
		value := item
		if _, ok := scalarText(item); !ok {
			var rest []*ast.MappingValueNode
			for _, e := range d.entries(item, w) {
				switch k := keyOf(e); k {
				case "alt":
					spec.Alt = d.value(e.Value, w+".alt", KindText)
				case "position":
					spec.Position = d.value(e.Value, w+".position", KindInteger)
				case "variant":
					spec.Variant = d.boolean(e.Value, w+".variant")
				default:
					rest = append(rest, e)
				}
			}
			value = imageValueNode(item, rest)
		}
		if value == nil {
			d.fail(item, "%s: give the column (or expr) holding the images; alt, position and variant say more about them", w)
			continue
		}
		spec.Source = d.value(value, w, KindList)
		if d.err != nil {
			return out
		}
		if spec.Source != nil {
			spec.Source.Target = w
		}
		out = append(out, spec)
	}
	return out
}

// imageValueNode is item without its alt, position and variant entries: the value's
// own keys, for decoder.value to read; nil when none is left.
func imageValueNode(item ast.Node, rest []*ast.MappingValueNode) ast.Node {
	switch {
	case len(rest) == 0:
		return nil
	case len(rest) == 1:
		return rest[0]
	}
	m, ok := unwrap(item).(*ast.MappingNode)
	if !ok {
		return rest[0]
	}
	c := *m
	c.Values = rest
	return &c
}

// imageProg is an ImageSpec bound to a header.
type imageProg struct {
	source, alt, position *valueProg
	variant               bool
}

// bindImages binds the images entries read from the file the program
// reads: those of the variants (variant) or the others; with neither
// restriction (both true) every entry.
func (b *binder) bindImages(specs []ImageSpec, product, variant bool) []imageProg {
	var out []imageProg
	for _, s := range specs {
		if s.Variant && !variant || !s.Variant && !product {
			continue
		}
		src := b.value(s.Source)
		if src == nil {
			continue // an optional column the file lacks
		}
		out = append(out, imageProg{source: src, alt: b.value(s.Alt), position: b.value(s.Position), variant: s.Variant})
	}
	return out
}

// evalImages reads the images a row names into out.Images: the variant
// entries on a row with a variant, the others on every row. A value that
// cannot be read fails its image, not the row: its error goes to the
// image.
func (p *Program) evalImages(row []string, out *Row) {
	if len(p.images) == 0 {
		return
	}
	var buf []string
	for _, ip := range p.images {
		if ip.variant && out.Role == RoleProduct && !out.Alone {
			continue
		}
		n := len(out.Errors)
		buf = p.list(ip.source, row, out, buf)
		alt := p.text(ip.alt, row, out)
		pos := 0
		if s := p.text(ip.position, row, out); s != "" {
			pos, _ = strconv.Atoi(s)
		}
		if len(out.Errors) > n {
			e := out.Errors[n]
			out.Images = append(out.Images, Image{Source: e.Value, Column: e.Column, Variant: ip.variant, Err: e.Rule})
			out.Errors = slices.Delete(out.Errors, n, len(out.Errors))
			continue
		}
		for k, src := range buf {
			im := Image{Source: src, Column: ip.source.errCol, Alt: alt, Variant: ip.variant}
			if pos > 0 {
				im.Position = pos + k
			}
			out.Images = append(out.Images, im)
		}
	}
}

// starterImages is the images section of a starter mapping: the columns
// whose names speak of images (not their alt texts, positions or
// labels), else a commented example.
func starterImages(header []string, used map[string]bool) string {
	var b strings.Builder
	b.WriteString("\nimages:                 # http or https URLs, or paths under the images folder (--images)\n")
	n := 0
	for _, h := range header {
		lh := strings.ToLower(strings.TrimSpace(h))
		if used[h] || !containsAny(lh, "image", "photo", "picture", "media") || containsAny(lh, "alt", "position", "label", "description", "sort", "id") {
			continue
		}
		used[h] = true
		n++
		fmt.Fprintf(&b, "  - {column: %q, split: \",\", optional: true}\n", strings.TrimSpace(h))
	}
	if n == 0 {
		b.WriteString("  # - {column: <column>, split: \",\"}   # one image a cell, or a list\n")
	}
	return b.String()
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
