// Package ops runs lading for a logistics provider (3PL) that works for
// many merchants: the accounts lading knows by name (each with its base
// URL, its token and a state file of its own), the jobs file that says
// which command runs for which account and when (every interval, on a
// cron schedule, or on each file dropped in a folder), and the runner
// that keeps them all going in one process: one pacer per token, one job
// of an account and kind at a time, one account's failures apart from the
// others', metrics for Prometheus and one log line a run.
//
// The jobs are the commands' own: a job's options are its command's flags
// by the same names, and the command line (app) binds them into a Task
// through a Kind. ops holds the rules above the jobs (when a job is due,
// which dropped files are taken and where they go, what a failure stops)
// and nothing of what a job does.
package ops
