package app

import (
	"encoding/json"
	"io"
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
