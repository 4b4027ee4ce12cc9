// Package sqliteview reads a SQLite database that another program is
// writing (opencode's opencode.db, in WAL mode) through SQLite itself
// (github.com/ncruces/go-sqlite3: SQLite translated to Go, no cgo),
// without disturbing that program and without trusting the file.
//
// Each Read opens a connection of its own through a VFS of ours that opens
// the database and its -wal read-only through the read gate (regular files
// only, no symlink, never blocking on a FIFO), and never creates, writes,
// truncates, deletes or locks a file. The connection runs in EXCLUSIVE
// locking mode, in which SQLite builds the WAL index in its own memory
// from the -wal's committed frames (https://sqlite.org/wal.html#noshm), so
// the -shm file is never opened by SQLite, let alone created or written.
// The writer therefore never waits for us, never gets SQLITE_BUSY because
// of us, and never has a checkpoint held back by us.
//
// Without locks, a checkpoint or a restart of the WAL could change pages
// in the middle of a read. So before and after each read the database
// file's identity, the -wal's header and the checkpoint counters in the
// -shm (only read) are compared: a read that overlapped a change is thrown
// away and done again, up to Limits.Tries times. A commit that only
// appends to the -wal changes none of them: its frames are past those the
// read's index holds.
//
// What one read may cost is capped: the connection's memory (its whole
// SQLite heap, Limits.MaxMemory, and SQLite's hard heap limit), the length
// of any one value (Limits.MaxValue), the -wal's size (Limits.MaxWAL) and
// the time (Limits.Timeout). A damaged, hostile or oversized file gives
// one error naming it (wrapping ErrCorrupt, readgate.ErrTooLarge or
// readgate.ErrNotRegular), never a panic.
package sqliteview

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

var (
	// ErrCorrupt is wrapped by the error for a file SQLite finds damaged
	// or that is no SQLite database.
	ErrCorrupt = errors.New("not a valid SQLite database")
	// ErrChanging is wrapped by the error for a database that was
	// checkpointed or rewritten during every one of a read's tries.
	ErrChanging = errors.New("changed during every read")
	// ErrTimeout is wrapped by the error for a read that took longer than
	// Limits.Timeout.
	ErrTimeout = errors.New("read took too long")
)

// Limits caps one Read. A zero field takes its default.
type Limits struct {
	MaxMemory int64         // the connection's memory, all of SQLite's heap (default 64 MiB)
	MaxValue  int           // the longest value (string or blob) SQLite makes (default 16 MiB)
	MaxWAL    int64         // the largest -wal read (default 256 MiB)
	Timeout   time.Duration // the longest a read may take (default 10 s)
	Tries     int           // reads before ErrChanging (default 5)
}

// Defaults for Limits.
const (
	DefaultMaxMemory = 64 << 20
	DefaultMaxValue  = 16 << 20
	DefaultMaxWAL    = 256 << 20
	DefaultTimeout   = 10 * time.Second
	DefaultTries     = 5
)

func (l Limits) withDefaults() Limits {
	if l.MaxMemory <= 0 {
		l.MaxMemory = DefaultMaxMemory
	}
	if l.MaxValue <= 0 {
		l.MaxValue = DefaultMaxValue
	}
	if l.MaxWAL <= 0 {
		l.MaxWAL = DefaultMaxWAL
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.Tries <= 0 {
		l.Tries = DefaultTries
	}
	return l
}

// Read opens the database at path as it is now and calls fn with a
// read-only connection to it, then closes it. When the database changed
// in a way that could have torn the read (a checkpoint, the WAL begun
// anew, the file replaced), fn is called again on a fresh connection: fn
// must keep nothing from a call that is not the last (collect into
// variables it resets, and act on them once Read returns nil). Every error
// is one line naming the file ("read PATH: …"); one from fn, SQLite's
// included, wraps what fn returned.
func Read(ctx context.Context, path string, lim Limits, fn func(*sqlite3.Conn) error) error {
	lim = lim.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	hot := false
	for try := 0; try < lim.Tries; try++ {
		if try > 0 {
			// A checkpoint is under way: give it time to end.
			t := time.NewTimer(time.Duration(try*try) * 5 * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("read %s: %w (over %v)", path, ErrTimeout, lim.Timeout)
			case <-t.C:
			}
		}
		before, err := stateOf(path, lim.MaxWAL)
		if err != nil {
			return err
		}
		if before.hot {
			hot = true
			continue // a commit under way in rollback mode: wait for it
		}
		err = once(ctx, path, lim, fn)
		after, serr := stateOf(path, lim.MaxWAL)
		if serr == nil && after == before {
			return explain(path, lim, err)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("read %s: %w (over %v)", path, ErrTimeout, lim.Timeout)
		}
	}
	if hot {
		return fmt.Errorf("read %s: %w (%d tries: a write under way, its -journal there)", path, ErrChanging, lim.Tries)
	}
	return fmt.Errorf("read %s: %w (%d tries: a checkpoint or a rewrite each time)", path, ErrChanging, lim.Tries)
}

// once is one try of Read: a connection opened, fn called, the
// connection closed. A panic from SQLite (ncruces panics when SQLite runs
// out of memory) is an error.
func once(ctx context.Context, path string, lim Limits, fn func(*sqlite3.Conn) error) (err error) {
	var c *sqlite3.Conn
	defer func() {
		if r := recover(); r != nil {
			err = panicError(r, lim)
		}
		if c != nil {
			if cerr := closeConn(c); err == nil {
				err = cerr
			}
		}
	}()
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	u := url.URL{Scheme: "file", Path: abs, RawQuery: "vfs=" + vfsName + "&mode=ro"}
	c, err = sqlite3.OpenContext(sqlite3.WithMaxMemory(ctx, lim.MaxMemory), u.String())
	if err != nil {
		return err
	}
	c.SetInterrupt(ctx)
	c.HardHeapLimit(lim.MaxMemory * 3 / 4)
	c.Limit(sqlite3.LIMIT_LENGTH, lim.MaxValue)
	for _, o := range []struct {
		op sqlite3.DBConfig
		on bool
	}{
		{sqlite3.DBCONFIG_DEFENSIVE, true},
		{sqlite3.DBCONFIG_NO_CKPT_ON_CLOSE, true},
		{sqlite3.DBCONFIG_TRUSTED_SCHEMA, false},
		{sqlite3.DBCONFIG_ENABLE_TRIGGER, false},
		{sqlite3.DBCONFIG_ENABLE_VIEW, false},
	} {
		if _, err := c.Config(o.op, o.on); err != nil {
			return err
		}
	}
	// No lock is ever waited for (the VFS takes none), but SQLite is
	// given a short busy timeout all the same.
	if err := c.BusyTimeout(100 * time.Millisecond); err != nil {
		return err
	}
	// EXCLUSIVE: the WAL index in the connection's own memory, no -shm.
	if err := c.Exec(`PRAGMA locking_mode=EXCLUSIVE; PRAGMA query_only=ON; PRAGMA temp_store=MEMORY;
		PRAGMA cache_size=-8192; PRAGMA mmap_size=0; PRAGMA cell_size_check=ON`); err != nil {
		return err
	}
	return fn(c)
}

// closeConn closes c, a panic while closing (a damaged connection) made an
// error.
func closeConn(c *sqlite3.Conn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("close: %v", r)
		}
	}()
	return c.Close()
}

// panicError is the error for a panic out of SQLite.
func panicError(r any, lim Limits) error {
	if e, ok := r.(error); ok && strings.Contains(e.Error(), "out of memory") {
		return fmt.Errorf("%w (it needs more than %d MiB of memory to read)", readgate.ErrTooLarge, lim.MaxMemory>>20)
	}
	return fmt.Errorf("%w (SQLite failed on it: %v)", ErrCorrupt, r)
}

// explain makes an error of SQLite's about the file one line naming it.
func explain(path string, lim Limits, err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite3.Error
	var code sqlite3.ErrorCode
	switch {
	case errors.As(err, &se):
		code = se.Code()
	case errors.As(err, &code):
	default:
		var xc sqlite3.ExtendedErrorCode
		if !errors.As(err, &xc) {
			return fmt.Errorf("read %s: %w", path, err) // fn's own, or a panic's
		}
		code = xc.Code()
	}
	msg := err.Error()
	if se != nil {
		// "sqlite3: database disk image is malformed" → what SQLite says.
		msg = strings.TrimPrefix(se.Error(), "sqlite3: ")
	} else {
		msg = strings.TrimPrefix(msg, "sqlite3: ")
	}
	switch code {
	case sqlite3.CORRUPT, sqlite3.NOTADB, sqlite3.FORMAT, sqlite3.RANGE, sqlite3.MISMATCH, sqlite3.IOERR, sqlite3.SCHEMA:
		return fmt.Errorf("read %s: %w (%s)", path, ErrCorrupt, msg)
	case sqlite3.TOOBIG:
		return fmt.Errorf("read %s: %w (a value over %d MiB)", path, readgate.ErrTooLarge, lim.MaxValue>>20)
	case sqlite3.NOMEM:
		return fmt.Errorf("read %s: %w (it needs more than %d MiB of memory to read)", path, readgate.ErrTooLarge, lim.MaxMemory>>20)
	case sqlite3.INTERRUPT:
		return fmt.Errorf("read %s: %w (over %v)", path, ErrTimeout, lim.Timeout)
	case sqlite3.CANTOPEN:
		var ge error = se
		if se != nil && se.Unwrap() != nil {
			ge = se.Unwrap()
		}
		return fmt.Errorf("read %s: %w", path, ge)
	}
	return fmt.Errorf("read %s: %s", path, msg)
}
