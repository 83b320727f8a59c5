// Package samples embeds the sample catalog (samples/catalog.csv and
// samples/catalog.xlsx, generic layout) so that `lading demo` works from any
// directory.
package samples

import (
	"embed"
	"os"
	"path/filepath"
)

//go:embed catalog.csv catalog.xlsx
var files embed.FS

// Names are the sample files.
var Names = []string{"catalog.csv", "catalog.xlsx"}

// WriteTo copies the sample files into dir and returns their paths.
func WriteTo(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, n := range Names {
		b, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
