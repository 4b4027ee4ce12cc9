package offload

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// FS is the file system offload files are written through: OSFS is the
// real one, and tests inject one that fails at a chosen step.
type FS interface {
	// SessionDir makes <root>/<session> ready (see the function SessionDir)
	// and returns its path.
	SessionDir(root, session string) (string, error)
	// CreateTemp creates a new file in dir, mode 0600, whose name begins
	// with prefix; it never opens an existing file or follows a link.
	CreateTemp(dir, prefix string) (File, error)
	// Open opens a file for reading without following a symbolic link.
	Open(name string) (Reader, error)
	// Rename moves oldpath to newpath unless something is already at
	// newpath, in which case it fails with an error that is fs.ErrExist.
	Rename(oldpath, newpath string) error
	// Remove removes a file.
	Remove(name string) error
}

// File is a file being written.
type File interface {
	io.Writer
	Sync() error
	Close() error
	Name() string
}

// Reader is a file being read back.
type Reader interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// OSFS is the operating system's file system.
type OSFS struct{}

var _ FS = OSFS{}

// SessionDir is the function SessionDir.
func (OSFS) SessionDir(root, session string) (string, error) { return SessionDir(root, session) }

// CreateTemp creates the file with O_CREATE|O_EXCL, never an existing file
// or a link, relative to dir opened without following a link in its place.
func (OSFS) CreateTemp(dir, prefix string) (File, error) {
	f, err := createTempAt(dir, prefix)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Open opens name with O_NOFOLLOW.
func (OSFS) Open(name string) (Reader, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

// Rename renames without replacing anything, relative to the directory
// opened without following a link in its place.
func (OSFS) Rename(oldpath, newpath string) error { return renameAt(oldpath, newpath) }

// Remove removes name.
func (OSFS) Remove(name string) error { return os.Remove(name) }

// FileWriter is where a result already in memory is offloaded to. Tests
// inject one that fails.
type FileWriter interface {
	// MkdirAll makes the session directory dir ready for files.
	MkdirAll(dir string) error
	// WriteFile writes data to path so that the file is either whole or
	// absent. It never replaces a file: when path exists it fails with an
	// error that is fs.ErrExist.
	WriteFile(path string, data []byte) error
}

// OSWriter writes to the operating system's files: directories 0700, files
// 0600, written to a temporary file in the same directory, synced, and
// renamed into place without replacing anything, so a failure leaves no
// partial file and no earlier file is overwritten.
type OSWriter struct{}

var _ FileWriter = OSWriter{}

// MkdirAll makes the session directory dir ready, as SessionDir does.
func (OSWriter) MkdirAll(dir string) error { return fsWriter{OSFS{}}.MkdirAll(dir) }

// WriteFile writes data atomically with mode 0600.
func (OSWriter) WriteFile(path string, data []byte) error {
	return fsWriter{OSFS{}}.WriteFile(path, data)
}

// fsWriter is a FileWriter over an FS.
type fsWriter struct{ fs FS }

func (w fsWriter) MkdirAll(dir string) error {
	_, err := w.fs.SessionDir(filepath.Dir(dir), filepath.Base(dir))
	return err
}

func (w fsWriter) WriteFile(path string, data []byte) error {
	f, err := w.fs.CreateTemp(filepath.Dir(path), tempPrefix(filepath.Base(path)))
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	n, err := f.Write(data)
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	step := "write"
	if err == nil {
		step, err = "sync", f.Sync()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		step, err = "close", cerr
	}
	if err == nil {
		step, err = "rename", w.fs.Rename(f.Name(), path)
		if errors.Is(err, fs.ErrExist) {
			_ = w.fs.Remove(f.Name()) // best effort: the temp file's name starts with a dot
			return err
		}
	}
	if err != nil {
		_ = w.fs.Remove(f.Name()) // best effort: the temp file's name starts with a dot
		return fmt.Errorf("%s: %w", step, err)
	}
	return nil
}

// tempPrefix is the name prefix of the temporary file an offload file is
// written to before it is renamed into place. It carries the writer's pid,
// so that CleanStaleTemps can tell a killed process's leftovers.
func tempPrefix(name string) string { return ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + name + "-" }

// CleanStaleTemps removes the temporary files that processes which are gone
// left in the session directories under root (a todo-shell killed while it
// offloaded cannot remove its own; a gigabyte has been seen). Files of live
// processes are never touched. It returns how many files it removed.
func CleanStaleTemps(root string) int {
	names, _ := filepath.Glob(filepath.Join(root, "*", ".tmp-*"))
	removed := 0
	for _, name := range names {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(name), ".tmp-"), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() && os.Remove(name) == nil {
			removed++
		}
	}
	return removed
}

// processAlive reports whether a process with pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
