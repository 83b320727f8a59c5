// Command lading moves catalog and stock data between spreadsheets and the
// integrations service. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"golang.org/x/term"

	"lading/app"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitPartial     = 3
	exitInterrupted = 130
)

// exitCode maps the error a command returned to the process exit code. It is
// the only place that does.
func exitCode(err error) int {
	var (
		u *app.UsageError
		p *app.PartialError
		i *app.InterruptedError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &p):
		return exitPartial
	case errors.As(err, &i), errors.Is(err, context.Canceled):
		return exitInterrupted
	}
	return exitFailure
}

// memoryLimit is the Go heap's soft limit unless the environment sets one
// (GOMEMLIMIT) or sets the collector's pace (GOGC). An import keeps every
// row of its input until the results file is written, so its heap only
// grows; with the collector's default pace the process would reach twice
// what it holds. Under the limit the collector works harder instead. The
// limit is sized for a 1,000,000-row catalog in 400 MB
// (scripts/bench-import.sh measures it); a larger one still imports, more
// slowly, as the collector then runs much of the time.
const memoryLimit = 384 << 20

// setMemoryLimit sets memoryLimit unless the user chose how the collector
// works through GOMEMLIMIT or GOGC.
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	debug.SetMemoryLimit(memoryLimit)
}

func main() {
	setMemoryLimit()
	// The first Ctrl-C cancels the context: commands stop taking new work,
	// finish what is in flight and record it. A second one kills the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	a := app.New(app.Env{
		Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin,
		IsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	})
	err := a.RunContext(ctx, os.Args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lading: %v\n", err)
		if advice := app.Advice(err); advice != "" {
			fmt.Fprintln(os.Stderr, advice)
		}
	}
	os.Exit(exitCode(err))
}
