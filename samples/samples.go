// Package samples embeds the sample catalog (samples/catalog.csv and
// samples/catalog.xlsx, generic layout) and the images it names
// (samples/images) so that `lading demo` works from any directory.
package samples

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed catalog.csv catalog.xlsx images
var files embed.FS

// Names are the sample files.
var Names = []string{"catalog.csv", "catalog.xlsx"}

// WriteTo copies the sample files into dir, with the images they name
// (dir/images), and returns the sample files' paths.
func WriteTo(dir string) ([]string, error) {
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if d.IsDir() {
			return os.MkdirAll(p, 0o755)
		}
		b, err := files.ReadFile(name)
		if err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(Names))
	for i, n := range Names {
		paths[i] = filepath.Join(dir, n)
	}
	return paths, nil
}
