package task

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// The files of a plan directory (a session's directory, or a named plan's).
const (
	// JournalFile has one line per version: a Record.
	JournalFile = "tasks.jsonl"
	// SnapshotFile holds the plan at a recent version (see snapshotDoc).
	SnapshotFile = "tasks.json"
	// LockFile is flock(2)ed while a change is made.
	LockFile = "tasks.lock"
)

// How a plan directory works. The journal is the record: a change is made
// under an exclusive flock of the lock file, by reading the journal lines
// other processes appended since this one last looked (catchUp), computing
// the change on that state, and appending its line in one write. A line is
// complete when it ends in a newline; a process killed mid-append leaves a
// last line without one, which the next writer (holding the lock, so its
// author is gone) cuts off. The kernel drops a dead process's flock, so a
// stale lock is taken over by the next process that asks for it.
//
// The snapshot is for readers that want the plan without replaying: it is
// replaced atomically (temporary file, rename) after a change, at most every
// snapshotEvery while the plan is large, and on Close; it says which version
// it holds and where in the journal that version ends.

// Every file of a plan directory is opened through the read gate: never
// through a final symbolic link, never blocking on a FIFO, and only when it
// is a regular file. The lock and the journal are opened that way before
// the lock is taken, so a FIFO or a device planted in the directory is
// refused at once, and a writer never blocks on it holding the lock. The
// journal is read in lines of at most readgate.MaxLine bytes, from where
// the last read stopped, never whole; the snapshot is read only when it is
// at most readgate.ListFile bytes (else the journal alone is read).

// snapshotEvery bounds how often a large plan's snapshot is rewritten.
const snapshotEvery = time.Second

// smallPlan is the size (in tasks) below which the snapshot is rewritten on
// every change.
const smallPlan = 200

// Dir is an open plan directory.
type Dir struct {
	path     string
	lockF    *os.File
	journal  *os.File
	offset   int64 // bytes of the journal applied to the state
	scanned  int64 // bytes after offset looked at: a line with no newline yet
	snapTime time.Time
	snapVer  uint64
}

// snapshotDoc is the snapshot's JSON form.
type snapshotDoc struct {
	Version      uint64 `json:"version"`
	NextID       int    `json:"next_id"`
	JournalBytes int64  `json:"journal_bytes"`
	Tasks        []Task `json:"tasks"`
}

// openDir opens (creating) the plan directory and reads its latest state.
func openDir(path string) (*Dir, State, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, State{}, fmt.Errorf("plan directory: %w", err)
	}
	d := &Dir{path: path}
	var err error
	d.lockF, _, err = readgate.OpenFile(filepath.Join(path, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, State{}, fmt.Errorf("plan lock: %w", err)
	}
	d.journal, _, err = readgate.OpenFile(filepath.Join(path, JournalFile), os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		_ = d.lockF.Close()
		return nil, State{}, fmt.Errorf("plan journal: %w", err)
	}
	st := NewState()
	// Start from the snapshot when it agrees with the journal.
	if b, err := readgate.ReadFile(filepath.Join(path, SnapshotFile), readgate.ListFile); err == nil {
		var doc snapshotDoc
		if json.Unmarshal(b, &doc) == nil && doc.NextID >= 1 && d.journalEndsLine(doc.JournalBytes) {
			st = State{Tasks: doc.Tasks, NextID: doc.NextID, Version: doc.Version}
			d.offset, d.snapVer = doc.JournalBytes, doc.Version
		}
	}
	if err := d.lock(); err != nil {
		d.closeFiles()
		return nil, State{}, err
	}
	d.catchUp(&st, true, nil)
	// Snapshots are written under the lock: a temporary file left now
	// is a killed writer's.
	if stale, err := filepath.Glob(filepath.Join(path, "."+SnapshotFile+".*")); err == nil {
		for _, f := range stale {
			_ = os.Remove(f)
		}
	}
	if d.snapVer != st.Version {
		d.snapshot(&st, true)
	}
	d.unlock()
	return d, st, nil
}

// journalEndsLine reports whether the journal holds at least n bytes and
// its byte n-1 ends a line (n = 0: the start).
func (d *Dir) journalEndsLine(n int64) bool {
	if n == 0 {
		return true
	}
	var b [1]byte
	_, err := d.journal.ReadAt(b[:], n-1)
	return err == nil && b[0] == '\n'
}

func (d *Dir) lock() error {
	for {
		err := syscall.Flock(int(d.lockF.Fd()), syscall.LOCK_EX)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("plan lock: %w", err)
		}
		return nil
	}
}

func (d *Dir) unlock() { _ = syscall.Flock(int(d.lockF.Fd()), syscall.LOCK_UN) }

// catchUp applies the journal lines after d.offset to st, calling emit (may
// be nil) for each version. With the lock held (locked), a last line cut off
// by a killed writer is removed; without it, it is left for its writer.
// Only what was added since the last call is read, in lines of at most
// readgate.MaxLine bytes (a longer line is skipped as damaged).
func (d *Dir) catchUp(st *State, locked bool, emit func(State, Record)) {
	info, err := d.journal.Stat()
	if err != nil {
		return
	}
	size := info.Size()
	if size < d.offset+d.scanned {
		// The journal shrank under us (replaced by hand): start over.
		*st, d.offset, d.scanned = NewState(), 0, 0
	}
	if size > d.offset+d.scanned {
		end, scanned, err := scanLines(d.journal, d.offset, d.scanned, size, func(line []byte) { applyLine(st, line, emit) })
		d.offset, d.scanned = end, scanned
		if err != nil {
			return
		}
	}
	if locked && d.scanned > 0 {
		// Its writer is gone: it never became a version.
		if d.journal.Truncate(d.offset) == nil {
			d.scanned = 0
		}
	}
}

// scanLines calls fn with each whole line (without its newline) of r
// between off and size, off being the start of a line and the scanned
// bytes after it already looked at for a newline. It returns where the
// last whole line ends and how many bytes follow it with no newline yet.
// A line over readgate.MaxLine bytes is skipped; memory stays within one
// such line and a 64 KiB block, whatever the file holds.
func scanLines(r io.ReaderAt, off, scanned, size int64, fn func(line []byte)) (end, rest int64, err error) {
	buf := make([]byte, 64<<10)
	p := &partLine{long: scanned > readgate.MaxLine}
	pos := off + scanned
	if !p.long && scanned > 0 {
		pos = off // the line's start is read again: it is short
	}
	for pos < size {
		if hole := holeAt(r, pos, size); hole > 0 {
			// Zeros a sparse file does not store: no newline in them.
			p.zeros(hole)
			pos += hole
			continue
		}
		n, rerr := r.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		chunk := buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				p.add(chunk)
				pos += int64(len(chunk))
				break
			}
			p.add(chunk[:i])
			if !p.long {
				fn(p.line)
			}
			pos += int64(i + 1)
			off = pos
			p.reset()
			chunk = chunk[i+1:]
		}
		switch {
		case errors.Is(rerr, io.EOF) && n == 0:
			return off, pos - off, nil // the file shrank under us
		case rerr != nil && !errors.Is(rerr, io.EOF):
			return off, pos - off, rerr
		case n == 0:
			return off, pos - off, nil
		}
	}
	return off, pos - off, nil
}

// partLine is a line not ended yet: its bytes, until it is over
// readgate.MaxLine (long), when they are dropped.
type partLine struct {
	line []byte
	long bool
}

func (p *partLine) add(b []byte) {
	if !p.long && len(p.line)+len(b) > readgate.MaxLine {
		p.long, p.line = true, nil
	}
	if !p.long {
		p.line = append(p.line, b...)
	}
}

func (p *partLine) zeros(n int64) {
	if !p.long && int64(len(p.line))+n > readgate.MaxLine {
		p.long, p.line = true, nil
	}
	if !p.long {
		p.line = append(p.line, make([]byte, n)...)
	}
}

func (p *partLine) reset() { p.line, p.long = p.line[:0], false }

// applyLine applies one journal line to st and tells emit (may be nil); a
// damaged line is skipped.
func applyLine(st *State, line []byte, emit func(State, Record)) bool {
	var rec Record
	if err := json.Unmarshal(line, &rec); err != nil || rec.Version == 0 {
		return false
	}
	st.Apply(rec.Change)
	st.Version = rec.Version
	if emit != nil {
		emit(*st, rec)
	}
	return true
}

// ApplyLine applies one journal line to st, for a reader that reads the
// journal as it grows, and returns its record; ok is false for a damaged
// line (st is then unchanged).
func ApplyLine(st *State, line []byte) (rec Record, ok bool) {
	ok = applyLine(st, line, func(_ State, r Record) { rec = r })
	return rec, ok
}

// ReadJournal reads a journal (tasks.jsonl) from r, calling fn (may be nil)
// with every version in order, and returns the last. Damaged lines, lines
// over readgate.MaxLine bytes and a last line without its newline are
// skipped; memory stays within one line, however long the file.
func ReadJournal(r io.ReaderAt, fn func(State, Record)) (State, error) {
	st := NewState()
	_, _, err := scanLines(r, 0, 0, 1<<62, func(line []byte) { applyLine(&st, line, fn) })
	return st, err
}

// holeAt returns how many bytes from pos (before size) are a hole of the
// sparse file r (0 when r is no file, or there is data at pos).
func holeAt(r io.ReaderAt, pos, size int64) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	data, err := f.Seek(pos, seekData)
	switch {
	case errors.Is(err, syscall.ENXIO):
		return size - pos // a hole to the end
	case err != nil || data <= pos:
		return 0
	}
	return min(data, size) - pos
}

// IsJournal reports whether the first line of a file (head) is a task
// journal record, so readers of several formats can tell.
func IsJournal(head []byte) bool {
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	var rec Record
	return json.Unmarshal(head, &rec) == nil && rec.Version > 0 && strings.HasPrefix(rec.Tool, "Task") && rec.NextID > 0
}

// Watch calls fn with every version of the plan directory path, in order —
// those already written, then each new one as it is written — until ctx
// ends. It never changes the plan (it creates the directory if missing, so
// it can wait for the first writer).
func Watch(ctx context.Context, path string, fn func(State, Record)) error {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return err
	}
	st := NewState()
	var d *Dir
	defer func() {
		if d != nil {
			_ = d.journal.Close()
		}
	}()
	return follow(ctx, path, func() {
		if d == nil {
			f, _, err := readgate.Open(filepath.Join(path, JournalFile))
			if err != nil {
				return // not there yet; or planted, and never read
			}
			d = &Dir{journal: f}
		}
		d.catchUp(&st, false, fn)
	})
}

// append writes rec as the journal's next line, in one write.
func (d *Dir) append(rec Record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if _, err := d.journal.Write(line); err != nil {
		// Whatever part was written is cut off by the next writer.
		return fmt.Errorf("plan journal: %w", err)
	}
	d.offset += int64(len(line))
	return nil
}

// snapshot rewrites the snapshot for st if it is due (or force).
func (d *Dir) snapshot(st *State, force bool) {
	if d.snapVer == st.Version && !force {
		return
	}
	now := time.Now()
	if !force && len(st.Tasks) > smallPlan && now.Sub(d.snapTime) < snapshotEvery {
		return
	}
	b := appendSnapshot(make([]byte, 0, 256+160*len(st.Tasks)), st, d.offset)
	if writeAtomic(filepath.Join(d.path, SnapshotFile), b) == nil {
		d.snapTime, d.snapVer = now, st.Version
	}
}

// close brings the snapshot up to date and closes the files.
func (d *Dir) close(st *State, emit func(State, Record)) error {
	err := d.lock()
	if err == nil {
		d.catchUp(st, true, emit)
		d.snapshot(st, d.snapVer != st.Version)
		d.unlock()
	}
	d.closeFiles()
	return err
}

func (d *Dir) closeFiles() {
	_ = d.journal.Close()
	_ = d.lockF.Close()
}

// writeAtomic replaces path with data through a temporary file in the same
// directory.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil { // CreateTemp made it 0600
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
	}
	return werr
}

// ReadDir reads a plan directory without changing it: every version in the
// journal, in order, as fn receives them (fn may be nil), and the last. A
// journal that is not a regular file is an error naming it.
func ReadDir(path string, fn func(State, Record)) (State, error) {
	f, _, err := readgate.Open(filepath.Join(path, JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return State{}, fmt.Errorf("plan journal: %w", err)
	}
	defer func() { _ = f.Close() }()
	d := &Dir{journal: f}
	st := NewState()
	d.catchUp(&st, false, fn)
	return st, nil
}

// follow calls refresh when the journal in dir changes, until ctx ends. A
// poll every second backs the notifications up.
func follow(ctx context.Context, dir string, refresh func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()
	if err := w.Add(dir); err != nil {
		return err
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	refresh()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Base(ev.Name) == JournalFile {
				refresh()
			}
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
			refresh()
		case <-tick.C:
			refresh()
		}
	}
}

// seekData is lseek(2)'s SEEK_DATA: the next offset holding data.
const seekData = 3
