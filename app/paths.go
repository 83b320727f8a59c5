package app

import "lading/paths"

// checkOutputs refuses, as a usage error naming both paths, an output that
// is one of the inputs or another output, or that cannot be written (see
// paths.CheckOutputs).
func checkOutputs(inputs, outputs []paths.Named) error {
	if err := paths.CheckOutputs(inputs, outputs); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

// checkStatePath refuses, as a usage error, a state file that cannot be
// opened or created (see paths.CheckState).
func checkStatePath(st paths.Named) error {
	if err := paths.CheckState(st); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}
