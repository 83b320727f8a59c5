package app

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Output goes one way in every command: with --json, one JSON object per
// line on stdout (a run, a push, a pull, a template); without, sentences
// for people. Warnings go to stderr as sentences in both (see logger), and
// the log format only with --debug.

// emit prints v as one JSON line with --json, else what text writes.
func (g *globalOptions) emit(env *Env, v any, text func(w io.Writer)) error {
	if g.JSON {
		return jsonLine(env.Stdout, v)
	}
	text(env.Stdout)
	return nil
}

// jsonLine writes v as one line of JSON.
func jsonLine(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// count is n and the noun, singular or plural as n asks: "1 row",
// "3 rows", "0 statuses".
func count(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, plural(n, noun))
}

// count64 is count of an int64.
func count64(n int64, noun string) string { return count(int(n), noun) }

// plural is noun as many as n: "row" for 1, "rows" otherwise. Only the
// last word of noun changes ("open fulfillment", "write request").
func plural(n int, noun string) string {
	if n == 1 || n == -1 {
		return noun
	}
	head, last := "", noun
	if i := strings.LastIndexByte(noun, ' '); i >= 0 {
		head, last = noun[:i+1], noun[i+1:]
	}
	switch {
	case strings.HasSuffix(last, "s"), strings.HasSuffix(last, "x"), strings.HasSuffix(last, "ch"), strings.HasSuffix(last, "sh"):
		return head + last + "es"
	case strings.HasSuffix(last, "y") && len(last) > 1 && !strings.ContainsRune("aeiou", rune(last[len(last)-2])):
		return head + last[:len(last)-1] + "ies"
	}
	return head + last + "s"
}

// singular is a plural noun's singular, for nouns plural makes: "rows"
// gives "row", "statuses" "status", "entries" "entry".
func singular(noun string) string {
	switch {
	case strings.HasSuffix(noun, "ies"):
		return strings.TrimSuffix(noun, "ies") + "y"
	case strings.HasSuffix(noun, "ses"), strings.HasSuffix(noun, "xes"), strings.HasSuffix(noun, "ches"), strings.HasSuffix(noun, "shes"):
		return strings.TrimSuffix(noun, "es")
	}
	return strings.TrimSuffix(noun, "s")
}
