package paths

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// The fields a file name a job writes may hold, each replaced by the
// run's time, so that each run (a pull, a monthly export) keeps a file of
// its own: -o orders-{time}.csv, -o reports/slips-{month}.xlsx.
const (
	// TimeField is the run's time to the second, in UTC:
	// 20261122T180953Z.
	TimeField = "{time}"
	// DateField is the run's day in the job's zone: 2026-11-22.
	DateField = "{date}"
	// MonthField is the run's month in the job's zone: 2026-11.
	MonthField = "{month}"
)

var fields = []string{TimeField, DateField, MonthField}

// ErrFieldInFolder is the error of a file name with a field in its
// folder rather than in the file's own name.
var ErrFieldInFolder = errors.New("goes in the file's name, not in its folder")

// CheckFields checks a file name pattern: its fields, if any, are in the
// file's own name (a run does not create folders).
func CheckFields(pattern string) error {
	dir := filepath.Dir(pattern)
	for _, f := range fields {
		if strings.Contains(dir, f) {
			return fmt.Errorf("%s: %s %w", pattern, f, ErrFieldInFolder)
		}
	}
	return nil
}

// HasFields reports whether pattern holds a field.
func HasFields(pattern string) bool {
	for _, f := range fields {
		if strings.Contains(pattern, f) {
			return true
		}
	}
	return false
}

// Fill is the file a run at t writes: pattern with its fields replaced;
// loc is the zone of the day and month (nil is UTC).
func Fill(pattern string, t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	local := t.In(loc)
	return strings.NewReplacer(
		TimeField, t.UTC().Format("20060102T150405Z"),
		DateField, local.Format(time.DateOnly),
		MonthField, local.Format("2006-01"),
	).Replace(pattern)
}
