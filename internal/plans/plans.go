// Package plans keeps account of todo-shell's shared task plans, the
// directories $XDG_STATE_HOME/todo-shell/plans/NAME that every process
// started with --plan NAME works on: which process uses one (Hold), what
// each holds (List), and removing those no process uses (Remove, Clean).
//
// A process using a plan holds a shared flock(2) on the plan's directory
// for as long as it runs; removing a plan takes it exclusive without
// waiting, so a plan in use is never removed. The kernel drops a dead
// process's lock. (A todo-shell from before this lock holds none: its use
// is not seen.)
package plans

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/tools/task"
)

// ErrInUse is why a plan a process uses is not removed.
var ErrInUse = errors.New("in use by a running todo-shell")

// Hold is a process's use of a plan: Release it when done.
type Hold struct {
	dir string
	f   *os.File
}

// Use marks the plan directory dir as used by this process, making it
// (0700) when it does not exist. It waits while the plan is being removed,
// and then uses the directory made anew.
func Use(dir string) (*Hold, error) {
	for range 10 {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("plan directory: %w", err)
		}
		f, err := openDir(dir)
		if err != nil {
			return nil, fmt.Errorf("plan directory: %w", err)
		}
		if err := flock(f, unix.LOCK_SH); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("plan directory %s: lock: %w", dir, err)
		}
		if same(f, dir) {
			return &Hold{dir: dir, f: f}, nil
		}
		_ = f.Close() // removed while we waited: use the new one
	}
	return nil, fmt.Errorf("plan directory %s: removed again and again while starting", dir)
}

// Release ends the use. A plan that never got a version (a process that
// only listed it, say) is removed when no other process uses it, so
// looking at a plan leaves nothing behind.
func (h *Hold) Release() error {
	if h == nil || h.f == nil {
		return nil
	}
	defer func() { _ = h.f.Close(); h.f = nil }()
	if hasVersion(h.dir) {
		return nil
	}
	if flock(h.f, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return nil // another process uses it
	}
	if hasVersion(h.dir) || !same(h.f, h.dir) {
		return nil
	}
	return removeFiles(h.dir)
}

// Info sums up one plan.
type Info struct {
	Name       string    `json:"plan"`
	Dir        string    `json:"dir"`
	LastChange time.Time `json:"last_change"`
	Done       int       `json:"done"`
	Total      int       `json:"total"`
	// InProgress is the activeForm (else the subject) of the first task
	// in progress, and Owner its owner.
	InProgress string `json:"in_progress"`
	Owner      string `json:"owner,omitempty"`
	Version    uint64 `json:"version"`
	Bytes      int64  `json:"bytes"`
	InUse      bool   `json:"in_use"`
	// Problem says why the plan could not be read (it is listed anyway).
	Problem string `json:"problem,omitempty"`
}

// List sums up the plans in root (plans/), most recently changed first;
// none when root does not exist. A name that is not a directory is left
// out.
func List(root string) ([]Info, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		out = append(out, stat(filepath.Join(root, e.Name())))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastChange.After(out[j].LastChange) })
	return out, nil
}

// Stat sums up the plan in dir; ok is false when there is no such plan
// directory.
func Stat(dir string) (Info, bool) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return Info{}, false
	}
	return stat(dir), true
}

func stat(dir string) Info {
	info := Info{Name: filepath.Base(dir), Dir: dir}
	if fi, err := os.Lstat(dir); err == nil {
		info.LastChange = fi.ModTime()
	}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				info.Bytes += fi.Size()
				if fi.ModTime().After(info.LastChange) {
					info.LastChange = fi.ModTime()
				}
			}
		}
	}
	info.InUse = inUse(dir)
	st, err := task.ReadDir(dir, nil)
	if err != nil {
		info.Problem = err.Error()
		return info
	}
	info.Version, info.Total = st.Version, len(st.Tasks)
	for i := range st.Tasks {
		t := &st.Tasks[i]
		switch t.Status {
		case task.StatusCompleted:
			info.Done++
		case task.StatusInProgress:
			if info.InProgress == "" {
				info.InProgress, info.Owner = t.ActiveForm, t.Owner
				if info.InProgress == "" {
					info.InProgress = t.Subject
				}
			}
		}
	}
	return info
}

// inUse reports whether a process holds the plan in dir.
func inUse(dir string) bool {
	f, err := openDir(dir)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }() // closing drops the lock taken here
	return flock(f, unix.LOCK_EX|unix.LOCK_NB) != nil
}

// Remove removes the plan in dir unless a process uses it (ErrInUse).
func Remove(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a plan directory", dir)
	}
	f, err := openDir(dir)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return ErrInUse
		}
		return err
	}
	return os.RemoveAll(dir)
}

// Removed is what Clean did with one plan.
type Removed struct {
	Info
	Skipped string // why it was left, when it was
	Err     error  // why it could not be removed
}

// Clean removes the plans in root whose last change is before cutoff and
// that no process uses (with dryRun, only says which).
func Clean(root string, cutoff time.Time, dryRun bool) ([]Removed, error) {
	list, err := List(root)
	if err != nil {
		return nil, err
	}
	var out []Removed
	for i := range list {
		info := list[i]
		if !info.LastChange.Before(cutoff) {
			continue
		}
		if info.InUse {
			out = append(out, Removed{Info: info, Skipped: ErrInUse.Error()})
			continue
		}
		if dryRun {
			out = append(out, Removed{Info: info})
			continue
		}
		err := Remove(info.Dir)
		if errors.Is(err, ErrInUse) {
			out = append(out, Removed{Info: info, Skipped: err.Error()})
			continue
		}
		out = append(out, Removed{Info: info, Err: err})
	}
	return out, nil
}

// hasVersion reports whether the plan in dir has a version on disk.
func hasVersion(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, task.JournalFile))
	return err == nil && fi.Size() > 0
}

// removeFiles removes a plan directory that holds no version: its task
// files, then the directory, which is left if anything else is in it.
func removeFiles(dir string) error {
	for _, name := range []string{task.JournalFile, task.SnapshotFile, task.LockFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, unix.ENOTEMPTY) && !errors.Is(err, unix.EEXIST) {
		return err
	}
	return nil
}

// openDir opens dir itself, never through a symbolic link.
func openDir(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir), nil
}

// flock takes how (LOCK_SH, LOCK_EX, with LOCK_NB) on f, again when a
// signal interrupts it.
func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// same reports whether f is still the directory at path (not one removed
// and made anew).
func same(f *os.File, path string) bool {
	var a, b unix.Stat_t
	if unix.Fstat(int(f.Fd()), &a) != nil || unix.Lstat(path, &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}
