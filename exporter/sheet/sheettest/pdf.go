package sheettest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recalcOnLoad is a LibreOffice profile setting: compute every formula of
// an Excel file as it opens, rather than show the values it holds.
const recalcOnLoad = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

// PDF prints the workbook at path to a PDF file with LibreOffice, as an
// accountant saving it for the file would, and returns the PDF's path and
// the text of each page (pdftotext -layout). With recalc, LibreOffice
// computes every formula as it opens the workbook instead of showing the
// values written. The test is skipped when LibreOffice is not installed
// (.ci/run installs libreoffice-calc-nogui and poppler-utils); it fails
// when LibreOffice is there but pdftotext is not.
func PDF(t testing.TB, path string, recalc bool) (string, []string) {
	t.Helper()
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		if soffice, err = exec.LookPath("libreoffice"); err != nil {
			t.Skip("LibreOffice is not installed (apt-get install libreoffice-calc-nogui poppler-utils, as .ci/run does): the printed pages are not checked")
		}
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("LibreOffice is installed but pdftotext is not: apt-get install poppler-utils")
	}
	profile, out := t.TempDir(), t.TempDir()
	if recalc {
		if err := os.MkdirAll(filepath.Join(profile, "user"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(profile, "user", "registrymodifications.xcu"), []byte(recalcOnLoad), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "--headless", "--norestore", "-env:UserInstallation=file://"+profile,
		"--convert-to", "pdf", "--outdir", out, path)
	cmd.Env = append(os.Environ(), "HOME="+profile) // LibreOffice writes beside the profile, nowhere else
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("LibreOffice could not print %s: %v\n%s", path, err, b)
	}
	pdf := filepath.Join(out, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+".pdf")
	text, err := exec.CommandContext(ctx, pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	pages := strings.Split(string(text), "\f")
	if pages[len(pages)-1] == "" {
		pages = pages[:len(pages)-1] // pdftotext ends the last page with a form feed too
	}
	return pdf, pages
}
