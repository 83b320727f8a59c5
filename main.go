// Command lading moves catalog and stock data between spreadsheets and the
// integrations service. See README.md.
package main

// The command reference in docs/reference and docs/man, and the table of
// exit codes in docs/exit-codes.md, are written from the command definitions.
//go:generate go run ./internal/docgen -docs docs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"syscall"
	"time"

	"golang.org/x/term"

	"lading/app"
	"lading/sandbox"
	"lading/state"
)

// exitCode maps the error a command returned to the process exit code (the
// codes and their meanings are app's, which help lists). It is the only
// place that does.
func exitCode(err error) int {
	var (
		u *app.UsageError
		p *app.PartialError
		i *app.InterruptedError
		r *app.RunsError
	)
	switch {
	case err == nil:
		return app.ExitOK
	case errors.As(err, &u):
		return app.ExitUsage
	case errors.As(err, &r):
		// The worst of the runs: one failed, rows failed, a job locked.
		switch {
		case r.Failed > 0:
			return app.ExitFailure
		case r.Partial > 0:
			return app.ExitPartial
		}
		return app.ExitLocked
	case errors.As(err, &p):
		return app.ExitPartial
	case errors.Is(err, state.ErrLocked):
		return app.ExitLocked
	case errors.As(err, &i), errors.Is(err, context.Canceled):
		return app.ExitInterrupted
	}
	return app.ExitFailure
}

// memoryLimit is the Go heap's first soft limit unless the environment
// sets one (GOMEMLIMIT) or sets the collector's pace (GOGC). An import
// keeps every row of its input until the results file is written, so its
// heap only grows; at the collector's default pace the process would
// reach twice what it holds. Under the limit the collector works harder
// instead. 208 MiB: a 1,000,000-row re-import or dry run holds at most
// about 165 MiB (while the file is read, and to the end of the account's
// listing), and the re-import allocates some 3 GB reading the listing
// into reused memory (api.ListOptions.Reuse); some 40 MiB between what
// it holds and the limit cost it 1.06 times the CPU it takes at 288 MiB
// (measured when it held 180 MiB under 224), for 231 MiB of peak RSS
// (scripts/bench-reimport.sh and bench-import.sh measure it).
const memoryLimit = 208 << 20

// limitCheck is how often manageMemory looks at the live heap.
const limitCheck = 200 * time.Millisecond

// firstGCPercent is the collector's pace until its first collection: Go
// starts one once the heap reaches 4 MiB times GOGC/100, here 64 MiB. At
// Go's pace the first collections come at 4 MiB and then as the heap
// doubles, while a run fills what it allocated first: the slice of a file's rows, made to the
// size of the file, is scanned by a collection before its rows are
// written, and every page of it is mapped twice (read, then written). A
// stock push of 100,000 rows made 15,000 page faults where it makes
// 11,000 without, in 0.8-0.88 of the CPU time (docs/performance.md). A
// run that ends before its heap reaches 64 MiB is never collected (an
// export of 100,000 variants to CSV peaks at 86 MB where it took 46); one
// that goes past it is collected at Go's pace from then on.
const firstGCPercent = 1600

// memory is whether manageMemory manages the soft limit (serveMemory
// takes it back, and a run that outgrows it gives it up), and whether the
// collector's first pace is still to be set back to Go's after the first
// collection (servePace sets its own); calls counts the calls of
// manageMemory that set it.
var memory struct {
	sync.Mutex
	managed, first bool
	calls          int
}

// manageMemory sets memoryLimit, and firstGCPercent until the first
// collection, unless the user chose how the collector works through
// GOMEMLIMIT or GOGC; once the live heap has outgrown the limit, it gives
// the collector a pace instead (see heapWatch); serveMemory takes it back.
func manageMemory() {
	if os.Getenv("GOMEMLIMIT") != "" || os.Getenv("GOGC") != "" {
		return
	}
	memory.Lock()
	defer memory.Unlock()
	memory.managed, memory.first = true, true
	memory.calls++
	debug.SetMemoryLimit(memoryLimit)
	debug.SetGCPercent(firstGCPercent)
	// Runs once the first collection finds the sentinel unreachable.
	runtime.AddCleanup(new([16]byte), afterFirstCollection, memory.calls)
	go func() {
		w := &heapWatch{}
		heap := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
		for range time.Tick(limitCheck) {
			metrics.Read(heap)
			if !watchHeap(w, heap[1].Value.Uint64(), int64(heap[0].Value.Uint64())) {
				return
			}
		}
	}()
}

// watchHeap has w look at the live heap the collection cycle found while
// manageMemory manages the collector; once the run has outgrown the soft
// limit, it takes the limit away and sets outgrownGCPercent. It returns
// whether to look again: false once it does not manage the collector.
func watchHeap(w *heapWatch, cycle uint64, live int64) bool {
	memory.Lock()
	defer memory.Unlock()
	if !memory.managed {
		return false
	}
	if !w.outgrown(cycle, live, memoryLimit) {
		return true
	}
	dropLimit()
	debug.SetGCPercent(outgrownGCPercent)
	return false
}

// dropLimit takes lading's soft limit away, under memory's lock.
func dropLimit() {
	memory.managed = false
	debug.SetMemoryLimit(math.MaxInt64)
}

// afterFirstCollection sets the collector's pace back to Go's after the
// first collection since call of manageMemory, unless servePace set the
// sandbox's meanwhile.
func afterFirstCollection(call int) {
	memory.Lock()
	defer memory.Unlock()
	if memory.first && call == memory.calls {
		memory.first = false
		debug.SetGCPercent(100)
	}
	firstCollected(call)
}

// firstCollected is told when afterFirstCollection ran, and for which
// call of manageMemory, under memory's lock (for tests).
var firstCollected = func(call int) {}

// serveMemory gives the collector a server's pace, Go's own (no soft
// limit; GOGC=100 once the first collection is past, until servePace),
// where manageMemory set lading's: lading sandbox holds its
// data in SQLite and serves for hours, and the limit an import's rows
// want kept the collector running while --load wrote a large catalog (1M
// variants: 78 s, 60 s at Go's pace). A limit or pace the user chose is
// left as it is.
func serveMemory() {
	memory.Lock()
	defer memory.Unlock()
	if memory.managed {
		dropLimit()
	}
}

// servePace sets the collector's pace lading sandbox serves at once it
// listens, any catalog loaded (sandbox.ServeGCPercent: a page of 250
// variants in about 0.9 of the CPU Go's default pace takes, for some 20 MB
// more of heap); a pace the user chose (GOGC) is left as it is.
func servePace() {
	memory.Lock()
	defer memory.Unlock()
	memory.first = false
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(sandbox.ServeGCPercent)
	}
}

// heapWatch watches the live heap against lading's soft limit. A heap
// that fills most of the limit would keep the collector running nearly
// without pause (a catalog larger than a million rows, a first import's
// rows with the plans of what it writes: 250 MiB of 1M rows, or the
// account's catalog read whole): past 85%, found by highLooks looks in a
// row each after a collection of its own, the run has outgrown the bound
// the limit was set for, and the collector is given a pace instead,
// outgrownGCPercent. A peak that one or two collections see (the end of a
// file's read: a 1M-row import holds 155-165 MiB, 75-80% of 208, and more
// for a moment) leaves the limit as it is.
type heapWatch struct {
	cycle uint64 // the collection looked at last
	high  int    // looks in a row that found the heap past 85%
}

// highLooks is how many looks in a row must find the heap past 85% of
// the limit for the run to have outgrown it: some 600 ms of a heap that
// stays there.
const highLooks = 3

// outgrownGCPercent is the collector's pace once a run has outgrown the
// soft limit: the heap grows to 1.5 times what a collection found live
// before the next starts. A limit raised to 1.5 times what was live, as
// lading did before, took a re-import of a million rows that changes every
// price (the account's catalog held whole, 1.1 GB) 51 collections, half a
// dozen at each raised limit with nearly everything live, where the pace
// takes 24: 51 s of CPU where it took 85-94 (two pairs), for the same
// peak RSS (1.3 GB; docs/performance.md).
const outgrownGCPercent = 50

// outgrown takes the live heap the collection cycle found, and says
// whether the run has outgrown limit.
func (w *heapWatch) outgrown(cycle uint64, live, limit int64) bool {
	if cycle == w.cycle {
		return false // no collection since the last look
	}
	w.cycle = cycle
	if live <= limit/20*17 {
		w.high = 0
		return false
	}
	w.high++
	return w.high >= highLooks
}

// onHangUp passes on each SIGHUP, from when it is called (lading run asks
// for it: other commands end on SIGHUP, as they always have).
func onHangUp() <-chan struct{} {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	out := make(chan struct{})
	go func() {
		for range sig {
			out <- struct{}{}
		}
	}()
	return out
}

func main() {
	manageMemory()
	// The first Ctrl-C cancels the context: commands stop taking new work,
	// finish what is in flight and record it. A second one kills the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	err := app.Run(ctx, app.Env{
		Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin,
		IsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
		Local:      time.Local,
		Serving:    serveMemory,
		Listening:  servePace,
		Reload:     onHangUp,
	}, os.Args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "lading: %v\n", err)
		if advice := app.Advice(err); advice != "" {
			fmt.Fprintln(os.Stderr, advice)
		}
	}
	os.Exit(exitCode(err))
}
