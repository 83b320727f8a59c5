package app

import (
	"github.com/urfave/cli/v2"

	"lading/importer"
	"lading/mapping"
	"lading/paths"
)

// namedPath is a file a command reads or writes, with how the user named
// it: "the input file", "--results".
type namedPath = paths.Named

// checkOutputs refuses, as a usage error naming both paths, an output that
// is one of the inputs or another output, or that cannot be written (see
// paths.CheckOutputs).
func checkOutputs(inputs, outputs []namedPath) error {
	if err := paths.CheckOutputs(inputs, outputs); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

// checkStatePath refuses, as a usage error, a state file that cannot be
// opened or created (see paths.CheckState).
func checkStatePath(st namedPath) error {
	if err := paths.CheckState(st); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

// checkImportPaths refuses an import whose outputs (results, plan) are one
// of its inputs (the input, the file the mapping joins, the mapping, the
// state) or cannot be written, before anything is read or sent.
func checkImportPaths(c *cli.Context, input string, m *mapping.Mapping) error {
	dry := c.Bool("dry-run")
	inputs := []namedPath{{What: "the input file", Path: input}}
	if m.Join != nil {
		inputs = append(inputs, namedPath{What: "the file the mapping joins", Path: importer.JoinedFile(input, m.Join.File)})
	}
	if f := c.String("mapping"); f != "" {
		inputs = append(inputs, namedPath{What: "the --mapping file", Path: f})
	}
	stateFile := namedPath{What: "the state file", Path: c.String("state")}
	inputs = append(inputs, stateFile)
	var outputs []namedPath
	switch r := c.String("results"); {
	case r != "":
		outputs = append(outputs, namedPath{What: "--results", Path: r})
	case !dry: // a dry run writes the results file only when it is named
		outputs = append(outputs, namedPath{What: "the results file", Path: importer.DefaultResultsPath(input)})
	}
	if p := c.String("plan"); p != "" {
		outputs = append(outputs, namedPath{What: "--plan", Path: p})
	}
	if err := checkOutputs(inputs, outputs); err != nil {
		return err
	}
	if dry { // a dry run does not open the state
		return nil
	}
	return checkStatePath(namedPath{What: "--state", Path: stateFile.Path})
}
