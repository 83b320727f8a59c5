package source

import (
	"context"
	"fmt"
	"os"
	"time"
)

// WaitSettled returns once path's size and modification time have not
// changed for settle (at once when the file was last modified longer ago
// than settle, and its size is stable); it checks again after each wait.
// waiting, when not nil, is called before each wait with how long and why
// (for a log line). It returns ctx's error if ctx ends first, and the os
// error if path cannot be read.
//
// Only the first look trusts the file's modification time, and only when
// a second look right away agrees on size and time. After that, size and
// modification time must stay the same for settle by this machine's clock:
// a filesystem whose times are coarse (FAT's 2 s, some network shares) or
// lag behind writes, or a clock that differs from the file server's,
// cannot cut the wait short while the file still grows. A settle of zero
// or less returns as soon as path can be read.
func WaitSettled(ctx context.Context, path string, settle time.Duration, waiting func(d time.Duration, why string)) error {
	last, err := lookAt(path)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil || settle <= 0 {
		return err
	}
	age := time.Since(last.mod)
	why := fmt.Sprintf("%s was changed %s ago", path, roundAge(age))
	if age >= settle {
		again, err := lookAt(path)
		if err != nil || again.same(last) {
			return err
		}
		why, last = changing(path, last, again), again
	}
	for {
		if waiting != nil {
			waiting(settle, why)
		}
		if err := sleep(ctx, settle); err != nil {
			return err
		}
		cur, err := lookAt(path)
		if err != nil {
			return err
		}
		if cur.same(last) {
			return nil
		}
		why, last = changing(path, last, cur), cur
	}
}

// Settling follows a file look after look (a drop folder's scans) and
// tells when it has settled, by WaitSettled's rules, without waiting
// itself. Its zero value is ready for a first look.
type Settling struct {
	last  look
	since time.Time // when last was first seen; zero before the first look
}

// Settled looks at path at now and reports whether it has settled: at the
// first look, when it was last modified settle ago or longer and a second
// look right away agrees; after, when its size and modification time have
// stayed as they were for settle by this machine's clock.
func (s *Settling) Settled(path string, settle time.Duration, now time.Time) (bool, error) {
	cur, err := lookAt(path)
	if err != nil {
		return false, err
	}
	if !s.since.IsZero() && cur.same(s.last) {
		return now.Sub(s.since) >= settle, nil
	}
	first := s.since.IsZero()
	s.last, s.since = cur, now
	if settle <= 0 {
		return true, nil
	}
	if !first || now.Sub(cur.mod) < settle {
		return false, nil
	}
	again, err := lookAt(path)
	if err != nil || !again.same(cur) {
		s.last = again
		return false, err
	}
	return true, nil
}

// changing says how the file changed between two looks.
func changing(path string, before, after look) string {
	if before.size != after.size {
		return fmt.Sprintf("%s is still being written (%d bytes, was %d)", path, after.size, before.size)
	}
	return fmt.Sprintf("%s was changed again", path)
}

// look is what WaitSettled compares between two looks at a file.
type look struct {
	size int64
	mod  time.Time
}

func (l look) same(o look) bool { return l.size == o.size && l.mod.Equal(o.mod) }

func lookAt(path string) (look, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return look{}, err
	}
	return look{size: fi.Size(), mod: fi.ModTime()}, nil
}

// sleep waits d or until ctx ends, returning ctx's error then.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// roundAge rounds a file's age for a person: whole seconds from ten
// seconds, milliseconds below; an age below zero (a clock ahead of this
// one) is said as 0s.
func roundAge(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return 0
	case d >= 10*time.Second:
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
