package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// The lock is an flock(2) on <session>/lock, held for as long as a process
// uses the session; the file holds the holder's pid, for the message a
// second process prints. The kernel drops the lock when its holder dies, so
// a killed process never leaves a session locked.

// acquire takes the session's lock or says who holds it.
func acquire(path, id string) (*os.File, error) {
	name := filepath.Join(path, LockFile)
	// A short retry: `sessions` and `clean` probe the lock for microseconds.
	for attempt := 0; ; attempt++ {
		f, _, err := readgate.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("session %s: %s cannot be used: %s", id, name, readgate.Reason(err))
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			// The file may have been removed (by clean) between open and
			// flock: then the lock guards nothing; try again.
			if same(f, name) {
				// The pid tells Live and `sessions` who holds it: a lock
				// without it would look released.
				if err := writePID(f); err != nil {
					release(f)
					return nil, fmt.Errorf("session %s: lock: %w", id, err)
				}
				return f, nil
			}
			_ = f.Close() // not locked, nothing written
			if err := os.Mkdir(path, 0o700); err != nil && !os.IsExist(err) {
				return nil, fmt.Errorf("session directory: %w", err)
			}
			continue
		}
		_ = f.Close() // not locked, nothing written
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("session %s: lock: %w", id, err)
		}
		if attempt >= 10 {
			return nil, &BusyError{ID: id, PID: holder(name)}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// writePID writes this process's pid into the lock file f.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// release empties the lock file (no holder) and unlocks it. Failures are
// harmless: a pid left behind makes Live probe the lock, which it finds
// free, and closing the file releases the lock in any case.
func release(f *os.File) {
	_ = f.Truncate(0)
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}

// same reports whether f is still the file at name.
func same(f *os.File, name string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(name)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// holder returns the pid written in the lock file, or 0.
func holder(name string) int {
	b, _ := readgate.ReadFile(name, readgate.SmallFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// Live reports whether a process holds the session directory at path, and
// which (pid 0 when unknown). It takes the lock for an instant to find out,
// unless the lock file is empty (nobody has it, or its holder was killed:
// the kernel then released it already).
func Live(path string) (bool, int) {
	name := filepath.Join(path, LockFile)
	pid := holder(name)
	if pid == 0 {
		// Empty: released normally, or never taken. A holder writes its pid
		// right after locking, so only a process in that instant is missed.
		return false, 0
	}
	f, _, err := readgate.Open(name)
	if err != nil {
		return false, 0
	}
	defer func() { _ = f.Close() }() // only probed: closing also unlocks
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true, pid
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) // the deferred close unlocks too
	return false, 0
}

// errLive says a process holds the session's lock.
var errLive = errors.New("in use by a running todo-shell")

// lockForRemoval takes the lock of the session at path so that it can be
// removed: errLive when a process holds it, the gate's error when the lock
// is not a regular file.
func lockForRemoval(path string) (*os.File, error) {
	f, _, err := readgate.OpenFile(filepath.Join(path, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		_ = f.Close() // only opened to try the lock
		return nil, errLive
	}
	return f, nil
}
