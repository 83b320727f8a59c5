package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// access is what a valid token grants.
type access struct {
	account   int64
	warehouse int64
	channel   int64
	client    string
}

// tokenHash is how tokens are stored: the sandbox never keeps a token in
// clear, so a database file leaks none.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// lookupToken finds the access of a token; ok is false for an unknown one.
func (t *txn) lookupToken(token string) (access, bool, error) {
	var a access
	found, err := t.row(`SELECT account_id, warehouse_id, channel_id, client_id FROM tokens WHERE token_hash = ?`,
		[]any{tokenHash(token)}, &a.account, &a.warehouse, &a.channel, &a.client)
	return a, found, err
}

// createAccount makes a new account.
func (t *txn) createAccount(name string, isDefault bool) (int64, error) {
	id := t.newID()
	_, err := t.exec(`INSERT INTO accounts(id, name, is_default, created_at) VALUES(?,?,?,?)`, id, name, isDefault, t.now)
	return id, err
}

// defaultAccount is the account OAuth clients are authorized for: the
// sandbox plays one admin user of one account.
func (t *txn) defaultAccount() (int64, error) {
	var id int64
	found, err := t.row(`SELECT id FROM accounts WHERE is_default = 1`, nil, &id)
	if err != nil || found {
		return id, err
	}
	return t.createAccount("Sandbox account", true)
}

// grantAccess creates the channel and the warehouse that come with a new
// token, and records the token. [Spec] General rule 3.
func (t *txn) grantAccess(account int64, client, token string) (access, error) {
	a := access{account: account, client: client}
	label := "Integration warehouse"
	if client != "" {
		label = "Integration warehouse (" + client + ")"
	}
	a.channel = t.newID()
	if _, err := t.exec(`INSERT INTO channels(id, account_id, name, created_at, updated_at) VALUES(?,?,?,?,?)`,
		a.channel, account, strings.Replace(label, "warehouse", "channel", 1), t.now, t.now); err != nil {
		return a, err
	}
	a.warehouse = t.newID()
	if _, err := t.exec(`INSERT INTO account_addresses(id, account_id, label, warehouse, created_at, updated_at) VALUES(?,?,?,1,?,?)`,
		a.warehouse, account, label, t.now, t.now); err != nil {
		return a, err
	}
	_, err := t.exec(`INSERT INTO tokens(token_hash, account_id, client_id, warehouse_id, channel_id, created_at) VALUES(?,?,?,?,?,?)`,
		tokenHash(token), account, client, a.warehouse, a.channel, t.now)
	return a, err
}

// RegisterToken makes token valid at once: it creates an account with one
// channel and one warehouse for it. Registering the same token again
// returns the same account.
func (s *Server) RegisterToken(token string) (Account, error) {
	if strings.TrimSpace(token) == "" {
		return Account{}, errors.New("sandbox: register token: the token is empty")
	}
	var a access
	err := s.st.do(context.Background(), func(t *txn) error {
		var found bool
		var err error
		a, found, err = t.lookupToken(token)
		if err != nil || found {
			return err
		}
		acct, err := t.createAccount("Sandbox account", false)
		if err != nil {
			return err
		}
		a, err = t.grantAccess(acct, "", token)
		return err
	})
	if err != nil {
		return Account{}, fmt.Errorf("sandbox: register token: %w", err)
	}
	return a.public(), nil
}

func (a access) public() Account {
	return Account{ID: itoa(a.account), WarehouseID: itoa(a.warehouse), ChannelID: itoa(a.channel)}
}

// authenticate resolves the access_token of a call, caching known tokens.
// A token is looked up in a read: a write, even one that changes nothing,
// makes the sandbox forget what it knows of its listings (see pager), and
// a client's first request threw away the counts taken as the sandbox
// started (see warm).
func (s *Server) authenticate(ctx context.Context, token string) (access, bool, error) {
	if token == "" {
		return access{}, false, nil
	}
	h := tokenHash(token)
	if v, ok := s.tokens.Load(h); ok {
		return v.(access), true, nil
	}
	var a access
	var found bool
	err := s.st.read(ctx, func(t *txn) error {
		var err error
		a, found, err = t.lookupToken(token)
		return err
	})
	if err != nil || !found {
		return access{}, false, err
	}
	s.tokens.Store(h, a)
	return a, true, nil
}
