package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"lading/app"
)

// docs is the documentation folder of the repository.
const docs = "../../docs"

// The reference in docs/ is what docgen writes from the command
// definitions: a flag, an example or an exit code changed without
// go generate ./... fails here.
func TestReferenceIsCurrent(t *testing.T) {
	t.Parallel()
	stale, err := stale(docs)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("the command reference in docs/ is out of date (%s): run go generate ./... and commit what it writes",
			strings.Join(stale, ", "))
	}
}

// Every command has a page and a man page naming each of its flags with
// its default, its examples and its exit codes.
func TestReferenceNamesEverything(t *testing.T) {
	t.Parallel()
	a := app.New(app.Env{})
	files, err := render(pages(a))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(slices.Clone(path), c.Name)
			name := strings.Join(p, "-")
			md, man := string(files["reference/"+name+".md"]), string(files["man/"+name+".1"])
			if md == "" || man == "" {
				t.Errorf("%s: no page (%d bytes) or man page (%d bytes)", name, len(md), len(man))
				continue
			}
			for _, f := range c.VisibleFlags() {
				flag := "`" + dashed(f.Names()[0]) + "`"
				if !strings.Contains(md, flag) {
					t.Errorf("%s.md does not name %s", name, flag)
				}
				if !strings.Contains(man, `\fB`+dashed(f.Names()[0])+`\fP`) {
					t.Errorf("%s.1 does not name %s", name, flag)
				}
				if d := defaultOf(f); d != "" && !slices.Contains(globals(a), f.Names()[0]) && !strings.Contains(md, "| `"+d+"` |") {
					t.Errorf("%s.md does not give the default of %s, %q", name, flag, d)
				}
			}
			help := app.HelpOf(a, c)
			for _, e := range help.Examples {
				if !strings.Contains(md, "# "+e.What+"\n"+e.Line+"\n") || !strings.Contains(man, strings.ReplaceAll(e.Line, `\`, `\\`)) {
					t.Errorf("%s: the example %q is missing", name, e.Line)
				}
			}
			for _, code := range help.Exits {
				if !strings.Contains(md, "\n| "+strconv.Itoa(code)+" | ") {
					t.Errorf("%s.md does not list exit code %d", name, code)
				}
			}
			walk(p, c.Subcommands)
		}
	}
	walk([]string{"lading"}, a.Commands)
	if len(help(a).Examples) == 0 || !strings.Contains(string(files["reference/lading.md"]), "`LADING_TOKEN`") {
		t.Errorf("lading.md lacks examples or the environment of the global options:\n%s", files["reference/lading.md"])
	}
}

func help(a *cli.App) app.Help { return app.HelpOf(a, nil) }

func globals(a *cli.App) []string { return flagNames(a.VisibleFlags()) }

// generate writes the files that are missing or differ and removes those
// of commands that are no more; the table of exit codes goes between its
// markers, the text around it kept.
func TestGenerate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, d := range []string{"reference", "man"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	page := "# Exit codes\n\nBefore.\n\n" + exitTableStart + "| old |\n" + exitTableEnd + "\nAfter.\n"
	write(t, dir, map[string]string{
		"exit-codes.md":             page,
		"reference/lading-frob.md":  "a command that is no more",
		"reference/lading-stock.md": "out of date",
	})
	if s, err := stale(dir); err != nil || !slices.Contains(s, "reference/lading-frob.md") ||
		!slices.Contains(s, "reference/lading-stock.md") || !slices.Contains(s, "man/lading.1") || !slices.Contains(s, "exit-codes.md") {
		t.Fatalf("stale: %v %v", s, err)
	}
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	if s, err := stale(dir); err != nil || len(s) > 0 {
		t.Errorf("after generate, stale: %v %v", s, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "reference/lading-frob.md")); !os.IsNotExist(err) {
		t.Errorf("the page of a command that is no more is still there: %v", err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "exit-codes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(text), "# Exit codes\n\nBefore.\n\n"+exitTableStart+"| code | meaning | commands |\n") ||
		!strings.HasSuffix(string(text), exitTableEnd+"\nAfter.\n") || strings.Contains(string(text), "| old |") {
		t.Errorf("exit-codes.md:\n%s", text)
	}
	write(t, dir, map[string]string{"exit-codes.md": "# Exit codes\n"})
	if err := generate(dir); err == nil || !strings.Contains(err.Error(), "no line") {
		t.Errorf("exit-codes.md without its markers: %v, want an error saying where the table goes", err)
	}
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The table of exit codes lists every code once, in the order of
// app.ExitCodes; 0, 1 and 2 are every command's, the others name the
// commands that may end with them.
func TestExitTable(t *testing.T) {
	t.Parallel()
	table := exitTable(pages(app.New(app.Env{})))
	lines := strings.Split(strings.TrimSuffix(table, "\n"), "\n")
	if len(lines) != 2+len(app.ExitCodes) {
		t.Fatalf("%d lines, want a header and %d codes:\n%s", len(lines), len(app.ExitCodes), table)
	}
	for i, e := range app.ExitCodes {
		cells := strings.Split(lines[2+i], " | ")
		if cells[0] != "| "+strconv.Itoa(e.Code) || cells[1] != e.Meaning {
			t.Errorf("row %d: %q, want code %d, %q", i, lines[2+i], e.Code, e.Meaning)
		}
		every := cells[2] == "every command |"
		if every != (e.Code <= app.ExitUsage) {
			t.Errorf("exit code %d: commands %q", e.Code, cells[2])
		}
	}
	if !strings.Contains(table, "[stock push](reference/lading-stock-push.md)") || strings.Contains(table, "(reference/lading-stock.md)") {
		t.Errorf("the table names the commands that run, not their groups:\n%s", table)
	}
}

func TestEscape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"fulfillment_id and quantity_left", "fulfillment_id and quantity_left"},
		{"_private_ and *bold*", `\_private\_ and \*bold\*`},
		{"[a](b) <b> `x` a\\b", "\\[a\\](b) \\<b> \\`x\\` a\\\\b"},
		{"{time} --new 15m", "{time} --new 15m"},
	} {
		if got := escape(tc.in); got != tc.want {
			t.Errorf("escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 30)
	got := wrap(long)
	for line := range strings.Lines(got) {
		if len(strings.TrimSuffix(line, "\n")) > lineWidth {
			t.Errorf("line longer than %d: %q", lineWidth, line)
		}
	}
	if strings.Join(strings.Fields(got), " ") != strings.TrimSpace(long) {
		t.Errorf("wrap changed the words: %q", got)
	}
	// A word that would begin a list, a heading or a quote stays on the
	// line before.
	text := strings.Repeat("x", lineWidth-2) + " - y # z"
	if got := wrap(text); strings.Contains(got, "\n-") || strings.Contains(got, "\n#") {
		t.Errorf("wrap(%q) = %q: a line begins with markup", text, got)
	}
}
