package sandbox

import (
	"context"
	"fmt"
)

// Loaded tells whether the catalog named key (lading sandbox --load: the
// file's content and the mapping) was loaded into the account of token,
// which is registered. A sandbox on a file remembers it across restarts.
func (s *Server) Loaded(ctx context.Context, token, key string) (bool, error) {
	a, err := s.resolveAccount(ctx, token, "")
	if err != nil {
		return false, fmt.Errorf("sandbox: loaded: %w", err)
	}
	var found bool
	err = s.st.read(ctx, func(t *txn) error {
		var v string
		var err error
		found, err = t.row(`SELECT v FROM meta WHERE k = ?`, []any{loadedKey(a.account, key)}, &v)
		return err
	})
	return found, err
}

// MarkLoaded remembers that the catalog named key was loaded into the
// account of token.
func (s *Server) MarkLoaded(ctx context.Context, token, key string) error {
	a, err := s.resolveAccount(ctx, token, "")
	if err != nil {
		return fmt.Errorf("sandbox: mark loaded: %w", err)
	}
	return s.st.do(ctx, func(t *txn) error {
		_, err := t.exec(`INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, loadedKey(a.account, key), t.now)
		return err
	})
}

func loadedKey(account int64, key string) string { return fmt.Sprintf("loaded:%d:%s", account, key) }
