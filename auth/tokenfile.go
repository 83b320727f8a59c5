package auth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// ReadTokenFile reads the token kept in the file at path (an account's
// token file, or one lading auth login --token-file stores): its text
// without the spaces and line ends around it. A file that cannot be read,
// or holds nothing, is an error that names it and never shows what it
// holds.
func ReadTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("token file %s: there is no such file: put the account's access token in it", path)
		}
		return "", fmt.Errorf("token file %s cannot be read: %w", path, err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", fmt.Errorf("token file %s is empty: put the account's access token in it", path)
	}
	if strings.ContainsAny(token, "\r\n") {
		return "", fmt.Errorf("token file %s holds more than one line: put only the account's access token in it", path)
	}
	return token, nil
}
