package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lading/api/wire"
)

func (e *env) upload(productID string, name string, data []byte) resp {
	e.t.Helper()
	return e.uploadParts(productID, "write", filePart{name, data})
}

// filePart is a `file` part of an upload.
type filePart struct {
	name string
	data []byte
}

// uploadParts posts a multipart upload with the `json` envelope for
// productID, an `action` part (none when action is "") and files.
func (e *env) uploadParts(productID, action string, files ...filePart) resp {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	envJSON, _ := json.Marshal(map[string]any{"action": "write", "ProductFiles": []any{
		map[string]any{"links": map[string]any{"Products": []any{map[string]any{"id": productID}}}}}})
	mw.WriteField(wire.MultipartJSONPart, string(envJSON))
	if action != "" {
		mw.WriteField("action", action)
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+f.name+`"`)
		h.Set("Content-Type", "image/png")
		pw, _ := mw.CreatePart(h)
		pw.Write(f.data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+wire.WritePath(wire.ProductFiles), &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set(wire.HeaderToken, e.token)
	return e.do(req)
}

// fileBytes reads a product file's bytes where its record's cdn_original
// says they are.
func (e *env) fileBytes(rec map[string]any) []byte {
	e.t.Helper()
	var cdn []struct {
		URI string `json:"public_uri"`
	}
	if err := json.Unmarshal([]byte(rec["cdn_original"].(string)), &cdn); err != nil || len(cdn) != 1 {
		e.t.Fatalf("cdn_original %v: %v", rec["cdn_original"], err)
	}
	res, err := e.ts.Client().Get(cdn[0].URI)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		e.t.Fatalf("GET %s: %d %s", cdn[0].URI, res.StatusCode, b)
	}
	return b
}

// TestProductFileBytes: the bytes of uploaded files are served where the
// records say, from a folder beside a file-backed database, and from
// memory up to the bound of an in-memory sandbox and a temporary folder
// beyond it, which Close removes.
func TestProductFileBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"file-backed", Options{DBPath: filepath.Join(t.TempDir(), "s.db")}},
		{"in memory, spilling past 1000 bytes", Options{MaxMemoryFileBytes: 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts)
			pid := e.mustIDs(wire.Products, product("Pic", "p1"))[0]
			want := map[string][]byte{}
			for i, n := range []int{600, 300, 900} {
				data := bytes.Repeat([]byte{byte('a' + i)}, n)
				r := e.upload(pid, fmt.Sprintf("f%d.png", i), data).expect(t, 200)
				want[r.body[wire.ProductFiles].([]any)[0].(map[string]any)["id"].(string)] = data
			}
			files := e.read(wire.ListPath(wire.ProductFiles), nil).expect(t, 200).records(wire.ProductFiles)
			if len(files) != 3 {
				t.Fatalf("%d files listed, want 3", len(files))
			}
			for _, f := range files {
				if got := e.fileBytes(f); !bytes.Equal(got, want[f["id"].(string)]) {
					t.Errorf("file %s: %d bytes served, want the %d uploaded", f["id"], len(got), len(want[f["id"].(string)]))
				}
			}
			fs := e.srv.files
			switch {
			case tc.opts.DBPath != "":
				if fs.dir != tc.opts.DBPath+".files" || len(fs.mem) != 0 {
					t.Errorf("a file-backed sandbox keeps files in %q and %d in memory", fs.dir, len(fs.mem))
				}
				entries, _ := os.ReadDir(fs.dir)
				if len(entries) != 3 {
					t.Errorf("%d files beside the database, want 3", len(entries))
				}
			default:
				if fs.used > 1000 || len(fs.mem) != 2 || fs.dir == "" {
					t.Errorf("in memory: %d bytes of %d files, spilled to %q; want 900 bytes of 2, the third spilled", fs.used, len(fs.mem), fs.dir)
				}
				dir := fs.dir
				e.srv.Close()
				if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the temporary folder %s outlives Close: %v", dir, err)
				}
			}
		})
	}
}

// TestProductFileUploadChecks: the sandbox refuses an upload the way the
// service would: a second file, an empty one, an action other than write.
func TestProductFileUploadChecks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	pid := e.mustIDs(wire.Products, product("Pic", "p1"))[0]
	for _, tc := range []struct {
		name   string
		action string
		files  []filePart
		want   string
	}{
		{"two files", "write", []filePart{{"a.png", []byte("a")}, {"b.png", []byte("b")}}, "two \"file\" parts"},
		{"an empty file", "write", []filePart{{"a.png", nil}}, "is empty"},
		{"no file", "write", nil, "no \"file\" part"},
		{"action read", "read", []filePart{{"a.png", []byte("a")}}, "not \"write\""},
	} {
		r := e.uploadParts(pid, tc.action, tc.files...).expect(t, 400)
		if !strings.Contains(r.message(), tc.want) {
			t.Errorf("%s: %q, want it to say %q", tc.name, r.message(), tc.want)
		}
	}
	if n := e.read(wire.ListPath(wire.ProductFiles), nil).meta()["total"]; n != "0" {
		t.Errorf("refused uploads stored %v files", n)
	}
	e.uploadParts(pid, "", filePart{"a.png", []byte("a")}).expect(t, 200)
}

func TestProductFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{MaxFileBytes: 1000})
	pid := e.mustIDs(wire.Products, product("Pic", "p1"))[0]
	r := e.upload(pid, "front.png", bytes.Repeat([]byte{1}, 600)).expect(t, 200)
	fid := r.body[wire.ProductFiles].([]any)[0].(map[string]any)["id"].(string)
	big := e.upload(pid, "huge.png", bytes.Repeat([]byte{1}, 1001)).expect(t, http.StatusRequestEntityTooLarge)
	if !strings.Contains(big.message(), "1000") {
		t.Errorf("size limit message %q", big.message())
	}
	e.upload("1", "x.png", []byte("x")).expect(t, 400)

	l := e.read(wire.ListPath(wire.ProductFiles), nil).expect(t, 200)
	files := l.records(wire.ProductFiles)
	if len(files) != 1 || files[0]["file_name"] != "front.png" || files[0]["size"] != "600" || files[0]["file_type"] != "image/png" {
		t.Fatalf("files %s", l.raw)
	}
	if l.side(wire.Products, pid) == nil {
		t.Error("product not sideloaded")
	}
	d := e.read(wire.DetailPath(wire.Products), map[string]any{"Products": []any{map[string]any{"id": pid}}})
	if got := linkIDsOf(d.records(wire.Products)[0], wire.ProductFiles); len(got) != 1 || got[0] != fid {
		t.Errorf("product links.ProductFiles %v", got)
	}
	e.mustIDs(wire.ProductFiles, map[string]any{"id": fid, "delete": "1"})
	if n := e.read(wire.ListPath(wire.ProductFiles), nil).meta()["total"]; n != "0" {
		t.Errorf("deleted file listed: %v", n)
	}
	fd := e.read(wire.DetailPath(wire.ProductFiles), map[string]any{"ProductFiles": []any{map[string]any{"id": fid}}}).expect(t, 200)
	if fd.records(wire.ProductFiles)[0]["deleted"] != "1" {
		t.Error("deleted file not marked")
	}
	// A JSON create has no file.
	e.write(wire.ProductFiles, map[string]any{"links": map[string]any{"Products": []any{map[string]any{"id": pid}}}}).expect(t, 400)
}

func TestPackingSlipsAndPackages(t *testing.T) {
	t.Parallel()
	e := stockedEnv(t, 10, 10)
	order := e.order(OrderSpec{ShippingAddress: shipTo, Lines: []OrderLine{{SKU: "A", Quantity: 2}}})
	line := linkIDsOf(e.read(wire.DetailPath(wire.SalesOrders), map[string]any{wire.SalesOrders: []any{map[string]any{"id": order}}}).
		records(wire.SalesOrders)[0], wire.SalesOrderLineItems)[0]
	ids := e.mustIDs(wire.PackingSlips,
		map[string]any{"packing_slip_date": "2024-05-01T10:00:00+0000", "notes": "first", "status": "open",
			"links": map[string]any{"LineItems": []any{map[string]any{"id": line, "quantity": "2"}}, "SalesOrders": []any{map[string]any{"id": order}}}},
		map[string]any{"packing_slip_date": "2024-06-01T10:00:00+0200", "notes": "second", "status": "done"},
	)
	r := e.read(wire.ListPath(wire.PackingSlips), map[string]any{
		"filter": map[string]any{"and": []any{map[string]any{"packing_slip_date": "2024-05-15", "operation": ">="}}}}).expect(t, 200)
	slips := r.records(wire.PackingSlips)
	if len(slips) != 1 || slips[0]["notes"] != "second" || slips[0]["packing_slip_date"] != "2024-06-01T08:00:00+00:00" {
		t.Fatalf("filtered slips %s", r.raw)
	}
	r = e.read(wire.ListPath(wire.PackingSlips), map[string]any{"sort": []any{map[string]any{"status": "desc"}}}).expect(t, 200)
	if s := r.records(wire.PackingSlips); s[0]["status"] != "open" {
		t.Errorf("sort by status desc: %v first", s[0]["status"])
	}
	d := e.read(wire.DetailPath(wire.PackingSlips), map[string]any{"PackingSlips": []any{map[string]any{"id": ids[0]}}}).expect(t, 200)
	first := d.records(wire.PackingSlips)[0]
	li := first["links"].(map[string]any)[wire.LineItems].([]any)
	if len(li) != 1 || li[0].(map[string]any)["quantity"] != "2" || len(linkIDsOf(first, wire.SalesOrders)) != 1 {
		t.Errorf("slip links %v", first["links"])
	}
	e.mustIDs(wire.PackingSlips, map[string]any{"id": ids[1], "status": "void", "void": 1})
	pk := e.mustIDs(wire.Packages, map[string]any{"tracking_number": "1Z", "cost": "4.50", "delivered": "0",
		"links": map[string]any{"PackingSlips": []any{map[string]any{"id": ids[0]}}, "PackageCarrierTypes": []any{map[string]any{"id": "1946376"}}}})
	r = e.write(wire.Packages, map[string]any{"links": map[string]any{"PackingSlips": []any{map[string]any{"id": "123"}}}}).expect(t, 400)
	if er := r.recordError(wire.Packages, 0); er == nil || !strings.Contains(er["message"].(string), "123") {
		t.Errorf("package with unknown slip: %v", er)
	}
	e.mustIDs(wire.Packages, map[string]any{"id": pk[0], "delete": 1})
	e.write(wire.Packages, map[string]any{"id": pk[0], "notes": "x"}).expect(t, 400)
	e.mustIDs(wire.PackingSlips, map[string]any{"id": ids[0], "delete": 1})
	if n := e.read(wire.ListPath(wire.PackingSlips), nil).meta()["total"]; n != "1" {
		t.Errorf("slips after delete %v", n)
	}
}
