package state

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// File is a product file of an account as an import knows it: the file
// at a place (where its content was read: a URL, or a path under the
// images folder) of a product, and the content's hash.
type File struct {
	Product string // the product's id in the account
	Place   string
	FileID  string
	Hash    string // SHA-256 of the content, in hex
	Size    int64
	Name    string // the file's name in the account
	// Ours says lading uploaded the file. Only such a file is deleted when
	// the content at its place changes; a file found in the account with
	// the same content (the state was lost) is not.
	Ours bool
	// ETag and Modified are what the server of a URL said of the content
	// (ETag, Last-Modified), to ask it next time whether it changed.
	ETag, Modified string
}

// FileKey names a File: a product and a place.
type FileKey struct{ Product, Place string }

// Key is f's FileKey.
func (f File) Key() FileKey { return FileKey{f.Product, f.Place} }

// Files returns the files remembered under scope of those products.
func (db *DB) Files(ctx context.Context, scope string, products []string) ([]File, error) {
	return db.files(ctx, scope, "product", products)
}

// FilesAt returns the files remembered under scope at those places, of
// any product: what was learned of a URL's content.
func (db *DB) FilesAt(ctx context.Context, scope string, places []string) ([]File, error) {
	return db.files(ctx, scope, "place", places)
}

// files returns the files of scope whose column (product or place) is
// one of keys.
func (db *DB) files(ctx context.Context, scope, column string, keys []string) ([]File, error) {
	var out []File
	for chunk := range slices.Chunk(keys, idChunk) {
		rows, err := db.sql.QueryContext(ctx, `SELECT product, place, file_id, hash, size, name, ours, etag, modified
			FROM files WHERE scope = ? AND `+column+` IN (`+placeholders(len(chunk))+`) ORDER BY product, place`, keyArgs(scope, chunk)...)
		if err != nil {
			return nil, fmt.Errorf("state: files (%s): %w", scope, err)
		}
		for rows.Next() {
			var f File
			if err := rows.Scan(&f.Product, &f.Place, &f.FileID, &f.Hash, &f.Size, &f.Name, &f.Ours, &f.ETag, &f.Modified); err != nil {
				rows.Close()
				return nil, fmt.Errorf("state: files (%s): %w", scope, err)
			}
			out = append(out, f)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("state: files (%s): %w", scope, err)
		}
	}
	return out, nil
}

// PutFiles remembers files under scope, each replacing what was
// remembered at its product and place, and forgets those of forget, in
// one transaction.
func (db *DB) PutFiles(ctx context.Context, scope string, files []File, forget []FileKey) error {
	if len(files) == 0 && len(forget) == 0 {
		return nil
	}
	err := db.withTx(ctx, func(tx *sql.Tx) error { return putFiles(ctx, tx, scope, files, forget) })
	if err != nil {
		return fmt.Errorf("state: put files (%s): %w", scope, err)
	}
	return nil
}

func putFiles(ctx context.Context, tx *sql.Tx, scope string, files []File, forget []FileKey) error {
	for _, k := range forget {
		if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE scope = ? AND product = ? AND place = ?`, scope, k.Product, k.Place); err != nil {
			return err
		}
	}
	if len(files) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO files (scope, product, place, file_id, hash, size, name, ours, etag, modified, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, product, place) DO UPDATE SET file_id = excluded.file_id, hash = excluded.hash,
			size = excluded.size, name = excluded.name, ours = excluded.ours, etag = excluded.etag,
			modified = excluded.modified, updated_at = excluded.updated_at`)
	if err != nil {
		return err
	}
	defer st.Close()
	t := now()
	for _, f := range files {
		if _, err := st.ExecContext(ctx, scope, f.Product, f.Place, f.FileID, f.Hash, f.Size, f.Name, f.Ours, f.ETag, f.Modified, t); err != nil {
			return err
		}
	}
	return nil
}
