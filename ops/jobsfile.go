package ops

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	// A schedule's zone loads on a host without the zone database too
	// (a container image, a Windows machine).
	_ "time/tzdata"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/robfig/cron/v3"

	"lading/internal/utf8text"
	"lading/suggest"
)

// Jobs is a jobs file, read and checked: the accounts its jobs name (its
// own, and those of the registry it names without defining) and its jobs,
// each bound to its command.
type Jobs struct {
	Path     string
	Accounts map[string]Account
	Jobs     []*Job
}

// A Job is one command run for one account: on an interval (Every), on a
// cron schedule (Schedule, in Zone), or on each file dropped in Folder.
type Job struct {
	// Path and Line say where the job is written.
	Path string
	Line int
	// Account is the name of the account it runs for, Kind its command
	// ("stock push"), Name what logs and metrics call it (the command's
	// name unless the file names it: unique within the account).
	Account, Kind, Name string
	Every               time.Duration
	Schedule            string
	Zone                *time.Location
	cron                cron.Schedule
	Folder              string
	// Options are the command's own flags by their names, and its
	// argument (file, report), as the file gives them.
	Options []Option
	// Task runs the job; its Kind made it from the options.
	Task Task
	// def is all of the above, to tell a job changed on reload.
	def string
}

// An Option is one key of a job that is its command's: a flag (by its
// long name; _ may stand for -) or its argument.
type Option struct {
	Key    string
	Values []string // one, or a list's (where:)
	Line   int
}

// Kinds are the commands a jobs file may name, by name ("stock push").
type Kinds map[string]Kind

// A Kind is a command a job may run.
type Kind struct {
	// File says the command reads a file (its argument, file:), so that a
	// job of it may take each file dropped in a folder instead.
	File bool
	// Bind checks a job's options as the command checks its flags, and
	// makes its task. An *OptionError places a mistake at its key.
	Bind func(j *Job) (Task, error)
}

// OptionError is a mistake in one option of a job.
type OptionError struct {
	Key string
	Err error
}

func (e *OptionError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// Error is a mistake in a jobs file, where it is.
type Error struct {
	Path string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Setup is what reading a jobs file takes from its surroundings.
type Setup struct {
	Kinds Kinds
	// Registry has the accounts a file names without defining them.
	Registry *Registry
	// Local is the zone of a schedule given none (nil: UTC).
	Local *time.Location
}

// The keys of a job that are the runner's; the others are its command's.
const (
	keyAccount  = "account"
	keyJob      = "job"
	keyName     = "name"
	keyEvery    = "every"
	keySchedule = "schedule"
	keyZone     = "zone"
	keyFolder   = "folder"
)

var (
	topKeys     = []string{"accounts", "jobs"}
	accountKeys = []string{"base_url", "token_file", "rate", "burst"}
)

// MinEvery is the shortest interval a job may run at.
const MinEvery = 100 * time.Millisecond

// DefaultPoll is how often a folder job looks into its folder unless its
// every says.
const DefaultPoll = 10 * time.Second

// maxErrors bounds the mistakes reported at once.
const maxErrors = 20

// Load reads and checks the jobs file at path.
func Load(path string, s Setup) (*Jobs, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the jobs file: %w", err)
	}
	return Parse(path, text, s)
}

// Parse reads and checks a jobs file: its accounts, each job's account,
// command, schedule and folder, and its options through the command's
// Kind. The mistakes are returned together (errors.Join of *Error, in the
// order of their lines).
func Parse(path string, text []byte, s Setup) (*Jobs, error) {
	p := &parser{path: path, setup: s, jobs: &Jobs{Path: path, Accounts: map[string]Account{}}}
	if bad := utf8text.Check(text, "the jobs file"); bad != nil {
		return nil, &Error{Path: path, Line: bad.Line, Msg: fmt.Sprintf("column %d: %s", bad.Column, bad.Msg)}
	}
	var top map[string]ast.Node
	if err := yaml.UnmarshalWithOptions(text, &top); err != nil {
		return nil, p.yamlError(err, "a jobs file is a mapping with accounts: and jobs:")
	}
	p.keys(top, topKeys, 0, "the jobs file")
	p.accounts(top["accounts"])
	p.jobList(top["jobs"])
	if len(p.errs) == 0 && len(p.jobs.Jobs) == 0 {
		p.fail(0, "no jobs: add a jobs: list, e.g.\n  jobs:\n    - {account: acme, job: stock push, file: /srv/acme/stock.csv, template: stock, every: 15m}")
	}
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
		errs := make([]error, 0, len(p.errs))
		for _, e := range p.errs[:min(len(p.errs), maxErrors)] {
			errs = append(errs, e)
		}
		return nil, errors.Join(errs...)
	}
	return p.jobs, nil
}

// parser reads one jobs file, collecting its mistakes.
type parser struct {
	path  string
	setup Setup
	jobs  *Jobs
	own   map[string]bool // the accounts the file defines
	errs  []*Error
}

func (p *parser) fail(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{Path: p.path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// yamlError is the *Error of a YAML error, at its line; want says what
// was expected when the YAML is valid but not of that shape.
func (p *parser) yamlError(err error, want string) error {
	var ye yaml.Error
	if !errors.As(err, &ye) {
		return &Error{Path: p.path, Msg: err.Error()}
	}
	line := 0
	if t := ye.GetToken(); t != nil && t.Position != nil {
		line = t.Position.Line
	}
	var se *yaml.SyntaxError
	if !errors.As(err, &se) {
		return &Error{Path: p.path, Line: line, Msg: want}
	}
	return &Error{Path: p.path, Line: line, Msg: "not valid YAML: " + ye.GetMessage()}
}

// lineOf is the line n starts on, or def.
func lineOf(n ast.Node, def int) int {
	if n == nil {
		return def
	}
	if t := n.GetToken(); t != nil && t.Position != nil {
		return t.Position.Line
	}
	return def
}

// keys refuses keys of m that are not in allowed, naming the closest.
func (p *parser) keys(m map[string]ast.Node, allowed []string, line int, where string) {
	for k, v := range m {
		if !slices.Contains(allowed, k) {
			msg := fmt.Sprintf("%s: unknown key %q; its keys are %s", where, k, strings.Join(allowed, ", "))
			if dym := suggest.DidYouMean(k, allowed, "%s"); dym != "" {
				msg += "; " + dym
			}
			p.fail(lineOf(v, line), "%s", msg)
		}
	}
}

// mapping decodes n as a mapping of keys to values; what names it.
func (p *parser) mapping(n ast.Node, line int, what string) (map[string]ast.Node, bool) {
	var m map[string]ast.Node
	if !decode(n, &m) {
		p.fail(lineOf(n, line), "%s must be a mapping of keys to values, like {account: acme, job: stock push, ...}", what)
		return nil, false
	}
	return m, true
}

// decode decodes n into v (a map or a slice of nodes), and reports
// whether n was of v's shape. Only a mapping is decoded into a map and a
// list into a slice: the library does not take every node it parses
// (a tag without a value).
func decode(n ast.Node, v any) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		if _, ok := v.(*[]ast.Node); ok {
			return false
		}
	case *ast.SequenceNode:
		if _, ok := v.(*[]ast.Node); !ok {
			return false
		}
	default:
		return false
	}
	return yaml.NodeToValue(n, v) == nil
}

// text is the value of a key that takes one.
func (p *parser) text(n ast.Node, line int, key string) string {
	vs, ok := values(n)
	if !ok || len(vs) != 1 {
		p.fail(lineOf(n, line), "%s takes one value, not a list or a mapping", key)
		return ""
	}
	return vs[0]
}

// values are the texts of a scalar, or of a list of scalars.
func values(n ast.Node) ([]string, bool) {
	if seq, ok := n.(*ast.SequenceNode); ok {
		out := make([]string, 0, len(seq.Values))
		for _, v := range seq.Values {
			s, ok := scalar(v)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	s, ok := scalar(n)
	return []string{s}, ok
}

// scalar is the text of a scalar as written (a string unquoted).
func scalar(n ast.Node) (string, bool) {
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return "", true
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		return strings.TrimSuffix(v.Value.Value, "\n"), true
	case ast.ScalarNode:
		return v.GetToken().Value, true
	}
	return "", false
}

// accounts reads the accounts the file defines.
func (p *parser) accounts(n ast.Node) {
	p.own = map[string]bool{}
	if n == nil {
		return
	}
	var defs map[string]ast.Node
	if !decode(n, &defs) {
		p.fail(lineOf(n, 0), "accounts: must be a mapping of account names to their settings, like acme: {base_url: https://..., token_file: /etc/lading/acme.token}")
		return
	}
	for name, def := range defs {
		line := lineOf(def, lineOf(n, 0))
		m, ok := p.mapping(def, line, "account "+name)
		if !ok {
			continue
		}
		p.keys(m, accountKeys, line, "account "+name)
		a := Account{Name: name, BaseURL: p.text(m["base_url"], line, "base_url"), TokenFile: p.text(m["token_file"], line, "token_file")}
		if r := p.text(m["rate"], line, "rate"); r != "" {
			if _, err := fmt.Sscan(r, &a.Rate); err != nil {
				p.fail(lineOf(m["rate"], line), "account %s: rate %q: want a number of requests per second, e.g. 5", name, r)
			}
		}
		if b := p.text(m["burst"], line, "burst"); b != "" {
			if _, err := fmt.Sscan(b, &a.Burst); err != nil || a.Burst < 1 {
				p.fail(lineOf(m["burst"], line), "account %s: burst %q: want a whole number, 1 or more", name, b)
			}
		}
		if a.BaseURL == "" {
			p.fail(line, "account %s has no base_url: give the service's address, e.g. base_url: https://HOST/api2", name)
		} else if err := a.Check(); err != nil {
			p.fail(line, "%v", err)
		}
		p.own[name] = true
		p.jobs.Accounts[name] = a
	}
}

// jobList reads the jobs.
func (p *parser) jobList(n ast.Node) {
	if n == nil {
		return
	}
	var items []ast.Node
	if !decode(n, &items) {
		p.fail(lineOf(n, 0), "jobs: must be a list, each job on a line starting with \"- \"")
		return
	}
	names := map[[2]string]int{}
	folders, writes := map[string]int{}, map[string]int{}
	for _, item := range items {
		j := p.job(item)
		if j == nil {
			continue
		}
		key := [2]string{j.Account, j.Name}
		if first, ok := names[key]; ok {
			p.fail(j.Line, "account %s has two jobs called %q (lines %d and %d): give each a name: key of its own", j.Account, j.Name, first, j.Line)
		}
		names[key] = j.Line
		if j.Folder != "" {
			abs, _ := filepath.Abs(j.Folder)
			if first, ok := folders[abs]; ok {
				p.fail(j.Line, "folder %s is the folder of the job on line %d too: each folder has one job, which takes its files", j.Folder, first)
			}
			folders[abs] = j.Line
		}
		for _, w := range j.Task.Writes {
			abs, _ := filepath.Abs(w)
			if first, ok := writes[abs]; ok {
				p.fail(j.Line, "%s: it writes %s, as the job on line %d does: give one of them another file (results:, output:)", j.Kind, w, first)
			}
			writes[abs] = j.Line
		}
		p.jobs.Jobs = append(p.jobs.Jobs, j)
	}
}

// job reads one job; nil when it is too wrong to go on with.
func (p *parser) job(n ast.Node) *Job {
	line := lineOf(n, 0)
	m, ok := p.mapping(n, line, "a job")
	if !ok {
		return nil
	}
	j := &Job{Path: p.path, Line: line}
	j.Account = p.text(m[keyAccount], line, keyAccount)
	j.Kind = p.text(m[keyJob], line, keyJob)
	j.Name = cmp.Or(p.text(m[keyName], line, keyName), j.Kind)
	kind, ok := p.kind(j, m)
	if !ok || !p.account(j, m) {
		return nil
	}
	p.when(j, m, kind)
	for k, v := range m {
		switch k {
		case keyAccount, keyJob, keyName, keyEvery, keySchedule, keyZone, keyFolder:
			continue
		}
		vs, ok := values(v)
		if !ok {
			p.fail(lineOf(v, line), "%s: %s takes a value or a list of values, not a mapping", j.Kind, k)
			continue
		}
		j.Options = append(j.Options, Option{Key: k, Values: vs, Line: lineOf(v, line)})
	}
	slices.SortFunc(j.Options, func(a, b Option) int { return cmp.Or(cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key)) })
	if len(p.errs) > 0 {
		return j // its options are not bound: the file is refused anyway
	}
	task, err := kind.Bind(j)
	var oe *OptionError
	switch {
	case errors.As(err, &oe):
		p.fail(j.optionLine(oe.Key), "%s: %v", j.Kind, err)
	case err != nil:
		p.fail(line, "%s: %v", j.Kind, err)
	}
	j.Task = task
	j.def = fmt.Sprintf("%q %v %q %q %q %v %+v", j.Kind, j.Every, j.Schedule, j.Zone, j.Folder, j.Options, p.jobs.Accounts[j.Account])
	return j
}

// optionLine is the line of the option key, or the job's.
func (j *Job) optionLine(key string) int {
	for _, o := range j.Options {
		if o.Key == key || strings.ReplaceAll(o.Key, "_", "-") == key {
			return o.Line
		}
	}
	return j.Line
}

// kind finds the job's command.
func (p *parser) kind(j *Job, m map[string]ast.Node) (Kind, bool) {
	var names []string
	for n := range p.setup.Kinds {
		names = append(names, n)
	}
	slices.Sort(names)
	if j.Kind == "" {
		p.fail(j.Line, "a job without job: say which command it runs: %s", strings.Join(names, ", "))
		return Kind{}, false
	}
	k, ok := p.setup.Kinds[j.Kind]
	if !ok {
		msg := fmt.Sprintf("job %q: no such command; a job runs one of %s", j.Kind, strings.Join(names, ", "))
		if dym := suggest.DidYouMean(j.Kind, names, "%s"); dym != "" {
			msg += "; " + dym
		}
		p.fail(lineOf(m[keyJob], j.Line), "%s", msg)
	}
	return k, ok
}

// account finds the job's account: the file's, else the registry's.
func (p *parser) account(j *Job, m map[string]ast.Node) bool {
	line := lineOf(m[keyAccount], j.Line)
	if j.Account == "" {
		p.fail(line, "%s: a job without account: say which account it runs for", j.Kind)
		return false
	}
	if p.own[j.Account] {
		return true
	}
	var known []string
	for n := range p.own {
		known = append(known, n)
	}
	if p.setup.Registry != nil {
		a, err := p.setup.Registry.Account(j.Account)
		if err == nil {
			p.jobs.Accounts[j.Account] = a
			return true
		}
		known = append(known, p.setup.Registry.Names()...)
	}
	slices.Sort(known)
	p.fail(line, "%s", (&NoAccountError{Name: j.Account, Known: slices.Compact(known)}).Error()+
		"; define it under accounts: in the jobs file, or with lading accounts add")
	return false
}

// when reads how the job is started: every, schedule (in zone) or folder.
func (p *parser) when(j *Job, m map[string]ast.Node, kind Kind) {
	every := p.text(m[keyEvery], j.Line, keyEvery)
	j.Schedule = strings.TrimSpace(p.text(m[keySchedule], j.Line, keySchedule))
	zone := p.text(m[keyZone], j.Line, keyZone)
	j.Folder = p.text(m[keyFolder], j.Line, keyFolder)
	if every != "" {
		d, err := time.ParseDuration(every)
		if err != nil || d < MinEvery {
			p.fail(lineOf(m[keyEvery], j.Line), "%s: every %q: want an interval of %s or more, like 90s, 15m or 1h", j.Kind, every, MinEvery)
		}
		j.Every = d
	}
	switch {
	case j.Folder != "" && j.Schedule != "":
		p.fail(j.Line, "%s: a folder job takes each file as it comes: give folder or schedule, not both", j.Kind)
	case j.Folder != "":
		p.folder(j, m, kind)
	case every != "" && j.Schedule != "":
		p.fail(j.Line, "%s: give every or schedule, not both", j.Kind)
	case every == "" && j.Schedule == "":
		p.fail(j.Line, "%s: say when the job runs: every: 15m, schedule: \"0 6 * * *\" (cron, with zone:), or folder: to take each file dropped there", j.Kind)
	case j.Schedule != "":
		p.schedule(j, m, zone)
	}
	if zone != "" && j.Schedule == "" {
		p.fail(lineOf(m[keyZone], j.Line), "%s: zone is the zone of a schedule; this job has none", j.Kind)
	}
}

// schedule reads a cron schedule and its zone.
func (p *parser) schedule(j *Job, m map[string]ast.Node, zone string) {
	line := lineOf(m[keySchedule], j.Line)
	j.Zone = p.setup.Local
	if j.Zone == nil {
		j.Zone = time.UTC
	}
	if zone != "" {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			p.fail(lineOf(m[keyZone], j.Line), "%s: zone %q: no such zone; give one like Europe/Berlin, America/New_York or UTC", j.Kind, zone)
			return
		}
		j.Zone = loc
		if strings.HasPrefix(j.Schedule, "TZ=") || strings.HasPrefix(j.Schedule, "CRON_TZ=") {
			p.fail(line, "%s: the schedule names its zone and zone: gives one too: give it once", j.Kind)
			return
		}
	}
	s, err := cron.ParseStandard(j.Schedule)
	if err != nil {
		p.fail(line, "%s: schedule %q: %v; a schedule is minute, hour, day of month, month and day of week, e.g. \"0 6 1 * *\" for 6:00 on the 1st of each month", j.Kind, j.Schedule, err)
		return
	}
	if s.Next(time.Now().In(j.Zone)).IsZero() {
		p.fail(line, "%s: schedule %q never comes (no such day in five years)", j.Kind, j.Schedule)
		return
	}
	j.cron = s
}

// folder checks a folder job's folder: a folder that exists, for a
// command that reads a file.
func (p *parser) folder(j *Job, m map[string]ast.Node, kind Kind) {
	line := lineOf(m[keyFolder], j.Line)
	if !kind.File {
		p.fail(line, "%s reads no file, so it cannot take the files of a folder; give it every or schedule", j.Kind)
		return
	}
	if j.Every == 0 {
		j.Every = DefaultPoll
	}
	fi, err := os.Stat(j.Folder)
	switch {
	case err != nil:
		p.fail(line, "%s: folder %s: %v", j.Kind, j.Folder, reason(err))
	case !fi.IsDir():
		p.fail(line, "%s: folder %s is a file: give the folder the files are dropped in", j.Kind, j.Folder)
	}
}
