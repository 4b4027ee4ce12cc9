// Package offloadtest has a file system for offload.Config.FS that fails at
// a chosen step, for fault-injection tests of every front end.
package offloadtest

import (
	"fmt"
	"strings"
	"sync"
	"syscall"

	"github.com/todo-shell/todo-shell/tools/offload"
)

// The steps at which a Fault can strike.
const (
	Dir    = "dir"    // making the session directory ready
	Create = "create" // creating the temporary file
	Write  = "write"  // writing, once the file holds After bytes
	Sync   = "sync"   // syncing the finished file
	Close  = "close"  // closing it (the descriptor is released anyway)
	Rename = "rename" // renaming it into place
	Read   = "read"   // reading a failed file back to move it elsewhere
)

// Steps are all the steps, in the order a file meets them.
var Steps = []string{Dir, Create, Write, Sync, Close, Rename}

// Fault makes one step fail for the files under one root.
type Fault struct {
	Under string // a root (absolute path) whose files fail; "" means every file
	Step  string // one of the steps above
	After int64  // for Write: how many bytes the file takes first
	Err   error  // the error; nil means ENOSPC
}

func (f Fault) err() error {
	if f.Err != nil {
		return f.Err
	}
	return syscall.ENOSPC
}

// FS is offload.OSFS with faults.
type FS struct {
	Faults []Fault

	mu    sync.Mutex
	steps []string
}

var _ offload.FS = (*FS)(nil)

// New returns an FS with the given faults.
func New(faults ...Fault) *FS { return &FS{Faults: faults} }

// Struck returns, in order, the steps at which a fault struck, each as
// "step path".
func (s *FS) Struck() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.steps...)
}

// fault returns the fault for step on path, if any.
func (s *FS) fault(step, path string) (Fault, bool) {
	for _, f := range s.Faults {
		if f.Step == step && (f.Under == "" || path == f.Under || strings.HasPrefix(path, strings.TrimSuffix(f.Under, "/")+"/")) {
			return f, true
		}
	}
	return Fault{}, false
}

func (s *FS) note(step, path string) {
	s.mu.Lock()
	s.steps = append(s.steps, step+" "+path)
	s.mu.Unlock()
}

// SessionDir is offload.SessionDir, or the Dir fault.
func (s *FS) SessionDir(root, session string) (string, error) {
	if f, ok := s.fault(Dir, root); ok {
		s.note(Dir, root)
		return "", fmt.Errorf("mkdir %s: %w", root, f.err())
	}
	return offload.OSFS{}.SessionDir(root, session)
}

// CreateTemp is offload.OSFS's, or the Create fault; the file it returns
// carries the Write, Sync and Close faults of its path.
func (s *FS) CreateTemp(dir, prefix string) (offload.File, error) {
	if f, ok := s.fault(Create, dir); ok {
		s.note(Create, dir)
		return nil, fmt.Errorf("open %s: %w", dir, f.err())
	}
	file, err := offload.OSFS{}.CreateTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	ff := &faultyFile{File: file, fs: s}
	if f, ok := s.fault(Write, file.Name()); ok {
		ff.write = &f
	}
	if f, ok := s.fault(Sync, file.Name()); ok {
		ff.sync = &f
	}
	if f, ok := s.fault(Close, file.Name()); ok {
		ff.close = &f
	}
	return ff, nil
}

// Open is offload.OSFS's, or the Read fault.
func (s *FS) Open(name string) (offload.Reader, error) {
	if f, ok := s.fault(Read, name); ok {
		s.note(Read, name)
		return nil, fmt.Errorf("open %s: %w", name, f.err())
	}
	return offload.OSFS{}.Open(name)
}

// Rename is offload.OSFS's, or the Rename fault (on the new path).
func (s *FS) Rename(oldpath, newpath string) error {
	if f, ok := s.fault(Rename, newpath); ok {
		s.note(Rename, newpath)
		return fmt.Errorf("rename %s: %w", newpath, f.err())
	}
	return offload.OSFS{}.Rename(oldpath, newpath)
}

// Remove is offload.OSFS's.
func (s *FS) Remove(name string) error { return offload.OSFS{}.Remove(name) }

// faultyFile is a file with faults.
type faultyFile struct {
	offload.File
	fs                 *FS
	write, sync, close *Fault
	written            int64
}

func (f *faultyFile) Write(p []byte) (int, error) {
	if f.write == nil {
		return f.File.Write(p)
	}
	room := f.write.After - f.written
	if int64(len(p)) <= room {
		n, err := f.File.Write(p)
		f.written += int64(n)
		return n, err
	}
	n := 0
	if room > 0 {
		n, _ = f.File.Write(p[:room])
		f.written += int64(n)
	}
	f.fs.note(Write, f.Name())
	return n, fmt.Errorf("write %s: %w", f.Name(), f.write.err())
}

func (f *faultyFile) Sync() error {
	if f.sync != nil {
		f.fs.note(Sync, f.Name())
		return fmt.Errorf("sync %s: %w", f.Name(), f.sync.err())
	}
	return f.File.Sync()
}

func (f *faultyFile) Close() error {
	err := f.File.Close()
	if f.close != nil {
		f.fs.note(Close, f.Name())
		return fmt.Errorf("close %s: %w", f.Name(), f.close.err())
	}
	return err
}
