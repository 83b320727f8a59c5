// Command lading moves catalog and stock data between spreadsheets and the
// integrations service. See README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
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

func main() {
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
	}
	os.Exit(exitCode(err))
}
