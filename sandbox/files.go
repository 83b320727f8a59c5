package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"

	"lading/api/wire"
)

// upload is the file part of a multipart product file write.
type upload struct {
	name, contentType string
	data              []byte
	used              bool
}

func productFileSpec() *listSpec {
	return &listSpec{
		resource: wire.ProductFiles, table: "product_files", base: "deleted = 0",
		cols:   withCommon(map[string]column{}),
		render: renderProductFiles,
	}
}

func renderProductFiles(t *txn, c *call, ids []int64, res *readResult) error {
	recs := map[int64]map[string]any{}
	products := &uniq{}
	if err := t.eachRow(`SELECT id, product_id, file_name, file_type, size, deleted, created_at, updated_at
		FROM product_files WHERE id IN `+inIDs, []any{idList(ids)}, func(rows *row) error {
		var id, product, size int64
		var name, typ, created, updated string
		var deleted bool
		if err := rows.Scan(&id, &product, &name, &typ, &size, &deleted, &created, &updated); err != nil {
			return err
		}
		products.add(product)
		recs[id] = map[string]any{
			"id": itoa(id), "file_name": name, "orig_file_name": name, "file_type": typ, "size": itoa(size),
			"cdn_original": cdnOriginal(c.r, id), "deleted": boolStr(deleted), "created_at": created, "updated_at": updated,
			wire.KeyLinks: map[string]any{wire.Products: idLinks([]int64{product})},
		}
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		if r, ok := recs[id]; ok {
			res.records = append(res.records, r)
		}
	}
	ps, err := t.productRecords(products.ids)
	if err != nil {
		return err
	}
	for _, id := range ps.order {
		res.add(wire.Products, itoa(id), ps.recs[id])
	}
	return nil
}

// cdnOriginal is where a file's bytes are served, in the form the
// service's records give it [A.3]: a JSON array, as a string, of
// {public_uri, public_ssl_uri}. The sandbox serves them itself
// (serveFile).
func cdnOriginal(r *http.Request, id int64) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	uri := scheme + "://" + r.Host + wire.SandboxAdminPrefix + filesPath + itoa(id)
	b, _ := json.Marshal([]map[string]string{{"public_uri": uri, "public_ssl_uri": uri}})
	return string(b)
}

// filesPath is where, under wire.SandboxAdminPrefix, the sandbox serves
// the bytes of product files by id.
const filesPath = "/files/"

// serveFile answers GET /_sandbox/files/ID with the bytes of product file
// ID, deleted or not, as a CDN keeps them.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, id string) {
	if r.Method != http.MethodGet {
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "%s%s answers GET", wire.SandboxAdminPrefix, filesPath))
		return
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		writeError(w, newAPIError(http.StatusNotFound, "no product file %q", id))
		return
	}
	var typ string
	var old []byte // the bytes of a file stored by an older sandbox, in the database
	err = s.st.read(r.Context(), func(t *txn) error {
		return t.eachRow(`SELECT file_type, content FROM product_files WHERE id = ?`, []any{n}, func(rows *row) error {
			return rows.Scan(&typ, &old)
		})
	})
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	data, err := s.files.get(n)
	switch {
	case errors.Is(err, fs.ErrNotExist) && old != nil:
		data = old
	case errors.Is(err, fs.ErrNotExist) || typ == "":
		writeError(w, newAPIError(http.StatusNotFound, "no product file %d", n))
		return
	case err != nil:
		s.writeFailure(w, err)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	w.Write(data)
}

func productFileWriter() *writer {
	return &writer{resource: wire.ProductFiles, apply: applyProductFile, multipart: true}
}

// applyProductFile stores the uploaded file for a product, or deletes a
// product file ({id, delete: "1"}).
func applyProductFile(t *txn, c *call, i int, rec record) (int64, error) {
	account := c.acc.account
	id, hasID, err := idField(rec, "")
	if err != nil {
		return 0, err
	}
	if hasID {
		if err := t.live("product_files", "ProductFiles", id, account); err != nil {
			return 0, err
		}
		if !flag(rec["delete"]) {
			return 0, fieldErr("delete", "a product file can only be deleted ({\"id\", \"delete\": \"1\"}); upload a new file to replace it")
		}
		_, err = t.markDeleted("product_files", id)
		return id, err
	}
	if c.upload == nil {
		return 0, fieldErr("file", "a new product file is uploaded as multipart/form-data with parts %q, \"action\" and %q",
			wire.MultipartJSONPart, wire.MultipartFilePart)
	}
	if c.upload.used {
		return 0, fieldErr("file", "one upload carries one file; record %d has none left", i)
	}
	links, err := linksOf(rec, "")
	if err != nil {
		return 0, err
	}
	pids, err := linkIDs(links.of(wire.Products), "links.Products")
	if err != nil {
		return 0, err
	}
	if len(pids) != 1 {
		return 0, fieldErr("links.Products", "a product file needs links.Products with exactly one product, got %d", len(pids))
	}
	if _, err := t.liveProduct(account, pids[0], "links.Products[0]."); err != nil {
		return 0, err
	}
	name, _, err := strField(rec, "file_name", "")
	if err != nil {
		return 0, err
	}
	if name == "" {
		name = c.upload.name
	}
	c.upload.used = true
	id = t.newID()
	if _, err := t.exec(`INSERT INTO product_files(id, account_id, product_id, file_name, file_type, size, created_at, updated_at)
		VALUES(?,?,?,?,?,?,?,?)`, id, account, pids[0], name, c.upload.contentType, len(c.upload.data), t.now, t.now); err != nil {
		return 0, err
	}
	return id, c.srv.files.put(id, c.upload.data)
}

// readMultipart reads a product file upload: the `json` part holds the
// write envelope, the `file` part the content. A file over the limit is
// refused with 413 before anything is stored.
func (s *Server) readMultipart(r *http.Request) (record, *upload, *apiError) {
	limit := s.opts.MaxFileBytes
	r.Body = http.MaxBytesReader(nil, r.Body, limit+(1<<20))
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, badRequest("cannot read the multipart body: %v", err)
	}
	var env record
	var action string
	var up *upload
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, tooLarge(limit)
			}
			return nil, nil, badRequest("cannot read the multipart body: %v", err)
		}
		switch part.FormName() {
		case wire.MultipartJSONPart:
			dec := json.NewDecoder(io.LimitReader(part, 1<<20))
			dec.UseNumber()
			if err := dec.Decode(&env); err != nil || env == nil {
				return nil, nil, badRequest("the %q part must hold the write envelope as JSON: %v", wire.MultipartJSONPart, err)
			}
		case wire.KeyAction:
			b, _ := io.ReadAll(io.LimitReader(part, 64))
			action = string(bytes.TrimSpace(b))
		case wire.MultipartFilePart:
			if up != nil {
				return nil, nil, badRequest("the multipart body has two %q parts: one upload carries one file", wire.MultipartFilePart)
			}
			var bad *apiError
			if up, bad = readFilePart(part, limit); bad != nil {
				return nil, nil, bad
			}
		}
	}
	if env == nil {
		return nil, nil, badRequest("the multipart body has no %q part with the write envelope", wire.MultipartJSONPart)
	}
	if action != "" && action != wire.ActionWrite {
		return nil, nil, badRequest("the %q part of an upload is %q, not %q", wire.KeyAction, action, wire.ActionWrite)
	}
	if _, has := env[wire.KeyAction]; !has && action != "" {
		env[wire.KeyAction] = action
	}
	if up == nil {
		return nil, nil, badRequest("the multipart body has no %q part", wire.MultipartFilePart)
	}
	if len(up.data) == 0 {
		return nil, nil, badRequest("the %q part %q is empty: a product file needs content", wire.MultipartFilePart, up.name)
	}
	return env, up, nil
}

// readFilePart reads an upload's file part, at most limit bytes; its
// content type is the part's, else its name's, else its content's.
func readFilePart(part *multipart.Part, limit int64) (*upload, *apiError) {
	data, err := io.ReadAll(io.LimitReader(part, limit+1))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(limit)
		}
		return nil, badRequest("cannot read the %q part: %v", wire.MultipartFilePart, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(limit)
	}
	ct := part.Header.Get("Content-Type")
	if ct == "" || ct == "application/octet-stream" {
		if bt := mime.TypeByExtension(filepath.Ext(part.FileName())); bt != "" {
			ct = bt
		} else {
			ct = http.DetectContentType(data)
		}
	}
	up := &upload{name: filepath.Base(part.FileName()), contentType: ct, data: data}
	if up.name == "." || up.name == "/" {
		up.name = "file"
	}
	return up, nil
}

func tooLarge(limit int64) *apiError {
	return newAPIError(http.StatusRequestEntityTooLarge, "the file is larger than the limit of %d bytes for a product file", limit)
}
