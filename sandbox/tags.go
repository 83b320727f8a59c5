package sandbox

import (
	"strconv"
	"strings"

	"lading/api/wire"
)

func productTagSpec() *listSpec {
	return &listSpec{
		resource: wire.ProductTags, table: "product_tags", base: "deleted = 0",
		cols: withCommon(map[string]column{"name": {"name", kText}}),
		render: func(t *txn, c *call, ids []int64, res *readResult) error {
			recs, err := t.tagRecords(ids)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if r, ok := recs[id]; ok {
					res.records = append(res.records, r)
				}
			}
			return nil
		},
	}
}

// tagRecords renders tags by id.
func (t *txn) tagRecords(ids []int64) (map[int64]map[string]any, error) {
	out := map[int64]map[string]any{}
	if err := t.eachRow(`SELECT id, name, deleted, created_at, updated_at FROM product_tags WHERE id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id int64
		var name, created, updated string
		var deleted bool
		if err := rows.Scan(&id, &name, &deleted, &created, &updated); err != nil {
			return err
		}
		out[id] = map[string]any{"id": itoa(id), "name": name, "deleted": boolStr(deleted),
			"created_at": created, "updated_at": updated, wire.KeyLinks: []any{}}
		return nil
	}); err != nil {
		return nil, err
	}
	return out, nil
}

func productTagWriter() *writer {
	return &writer{resource: wire.ProductTags, apply: applyTag}
}

// applyTag creates ({name}), renames ({id, name}) or deletes ({id,
// delete: 1}) a product tag. Tag names are unique in an account.
func applyTag(t *txn, c *call, i int, rec record) (int64, error) {
	account := c.acc.account
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, err
	}
	name, hasName, err := strField(rec, "name", "")
	if err != nil {
		return 0, err
	}
	name = strings.TrimSpace(name)
	if hasID {
		if err := t.live("product_tags", "ProductTags", id, account); err != nil {
			return 0, err
		}
		if flag(rec["delete"]) {
			if _, err := t.markDeleted("product_tags", id); err != nil {
				return 0, err
			}
			_, err := t.exec(`DELETE FROM product_tag_links WHERE tag_id = ?`, id)
			return id, err
		}
		if hasName {
			if err := t.checkTagName(account, name, id); err != nil {
				return 0, err
			}
			if _, err := t.exec(`UPDATE product_tags SET name = ?, updated_at = ? WHERE id = ?`, name, t.now, id); err != nil {
				return 0, err
			}
		}
		return id, nil
	}
	if err := t.checkTagName(account, name, 0); err != nil {
		return 0, err
	}
	return t.createTag(account, name)
}

func (t *txn) checkTagName(account int64, name string, self int64) error {
	if name == "" {
		return fieldErr("name", "name is required: the tag's text")
	}
	var other int64
	found, err := t.row(`SELECT id FROM product_tags WHERE account_id = ? AND name = ? AND deleted = 0 AND id <> ?`,
		[]any{account, name, self}, &other)
	if err != nil {
		return err
	}
	if found {
		return fieldErr("name", "a tag named %q already exists with id %d", name, other)
	}
	return nil
}

func (t *txn) createTag(account int64, name string) (int64, error) {
	id := t.newID()
	t.insert(insertTags, id, account, name)
	// The tags held back are known by name and id (see resolveTags).
	remember(&t.memo.tags, account, name, id)
	t.memo.liveTag(id)
	return id, nil
}

// resolveTags reads [{id} or {name}], creating tags given by a new name.
// The tags held back are in the memo, which the database completes.
func (t *txn) resolveTags(account int64, recs []record, path string) ([]int64, error) {
	out := make([]int64, 0, len(recs))
	for i, r := range recs {
		p := path + "[" + strconv.Itoa(i) + "]."
		if len(recs) == 1 && strings.HasSuffix(path, "]") {
			p = path + "."
		}
		id, hasID, err := idField(r, p)
		if err != nil {
			return nil, err
		}
		if hasID {
			found := t.memo.liveTags[id]
			if !found {
				var x int64
				if found, err = t.rowBeside(`SELECT id FROM product_tags WHERE id = ? AND account_id = ? AND deleted = 0`, []any{id, account}, &x); err != nil {
					return nil, err
				}
			}
			if !found {
				return nil, fieldErr(p+"id", "%sid: no ProductTags record with id %d in this account", p, id)
			}
			t.memo.liveTag(id)
			out = append(out, id)
			continue
		}
		name, _, err := strField(r, "name", p)
		if err != nil {
			return nil, err
		}
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fieldErr(p+"name", "%s needs an id or a name", strings.TrimSuffix(p, "."))
		}
		id, found := lookup(t.memo.tags, account, name)
		if !found {
			if found, err = t.rowBeside(`SELECT id FROM product_tags WHERE account_id = ? AND name = ? AND deleted = 0`, []any{account, name}, &id); err != nil {
				return nil, err
			}
		}
		if !found {
			if id, err = t.createTag(account, name); err != nil {
				return nil, err
			}
		}
		remember(&t.memo.tags, account, name, id)
		t.memo.liveTag(id)
		out = append(out, id)
	}
	return out, nil
}

// tagProduct assigns or removes a tag.
func (t *txn) tagProduct(product, tag int64, assign bool) error {
	if assign {
		t.insert(insertTagLinks, product, tag)
		return nil
	}
	_, err := t.exec(`DELETE FROM product_tag_links WHERE product_id = ? AND tag_id = ?`, product, tag)
	return err
}
