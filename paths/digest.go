package paths

import (
	"io"
	"os"
)

// HashFiles writes the content of each file, in order, to w (a hash):
// what names a file by its content, for an import's fingerprint, a
// dropped file's key or a sandbox's --load.
func HashFiles(w io.Writer, files ...string) error {
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
