package engine

// Status is what became of an input row (or of a record a job writes),
// as results files and reports name it. A row with no status yet is
// pending.
type Status string

// The statuses every job shares. Jobs name their own successes (sent,
// posted, already shipped) as Statuses too; only those below fail a row.
const (
	Created   Status = "created"
	Updated   Status = "updated"
	Unchanged Status = "unchanged"
	// Archived and Deleted: a product archived, a product or a variant
	// deleted (an import's command, an undo of what a run created).
	Archived Status = "archived"
	Deleted  Status = "deleted"
	// ToCreate, ToUpdate, ToArchive and ToDelete: what a dry run would do.
	ToCreate  Status = "to create"
	ToUpdate  Status = "to update"
	ToArchive Status = "to archive"
	ToDelete  Status = "to delete"
	// Skipped: a skip rule matched, or the row was not sent (a strict
	// run with invalid rows, an interruption).
	Skipped Status = "skipped"
	// Invalid: a cell of the row is wrong, or the row disagrees with
	// another.
	Invalid Status = "invalid"
	// Unknown: the row names something the account does not have.
	Unknown Status = "unknown"
	// Refused: the row cannot be carried out as it is against what the
	// account holds (more units than are left to ship, say).
	Refused Status = "refused"
	// Failed: the service refused the row's write, gave no answer that
	// could be checked, or the run stopped before it went.
	Failed Status = "failed"
	// Conflict: the account changed the row's record since (an undo
	// found a value that is neither the run's nor the one before it);
	// it is kept as it is.
	Conflict Status = "conflict"
)

// Failed reports whether a row with the status counts as failed: the
// run ends with some rows failed (exit 3).
func (s Status) Failed() bool {
	switch s {
	case Invalid, Unknown, Refused, Failed, Conflict:
		return true
	}
	return false
}

// Fate is an input row's number and what became of it: jobs embed it in
// their line types.
type Fate struct {
	Row    int // 1-based line (CSV) or row (XLSX), as a person counts them
	Action Status
	Msg    string
}

// Pending reports whether the row is still to be settled.
func (r *Fate) Pending() bool { return r.Action == "" }

// Set settles the row with s, saying msg.
func (r *Fate) Set(s Status, msg string) { r.Action, r.Msg = s, msg }

// Counts counts rows (or records) by status.
type Counts map[Status]int

// Failed is how many of the counted rows failed.
func (c Counts) Failed() int {
	n := 0
	for s, k := range c {
		if s.Failed() {
			n += k
		}
	}
	return n
}

// Total is how many rows were counted.
func (c Counts) Total() int {
	n := 0
	for _, k := range c {
		n += k
	}
	return n
}

// Rower is what a job's line gives the engine: its Fate.
type Rower interface{ fate() *Fate }

func (r *Fate) fate() *Fate { return r }

// Count counts lines by status.
func Count[L any, PL interface {
	*L
	Rower
}](lines []L) Counts {
	c := Counts{}
	var run Status // lines of one status come in runs: counted a run at a time
	n := 0
	for i := range lines {
		if s := PL(&lines[i]).fate().Action; s != run || n == 0 {
			if n > 0 {
				c[run] += n
			}
			run, n = s, 0
		}
		n++
	}
	if n > 0 {
		c[run] += n
	}
	return c
}

// SettlePending gives every pending line s and msg.
func SettlePending[L any, PL interface {
	*L
	Rower
}](lines []L, s Status, msg string) {
	for i := range lines {
		if r := PL(&lines[i]).fate(); r.Pending() {
			r.Set(s, msg)
		}
	}
}
