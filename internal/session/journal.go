package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// journal writes accepted versions to disk off the writer's path: add (the
// store's Every subscriber) only queues the snapshot; a goroutine appends each
// queued version's line to todos.jsonl in one write, then replaces
// todos.json with the newest.
type journal struct {
	dir  *os.Root // the session directory, held open
	file *os.File // todos.jsonl, appending

	mu      sync.Mutex
	queue   []todo.Snapshot
	writing bool // the goroutine holds a batch
	err     error
	idle    *sync.Cond // signalled when the queue is empty and nothing is being written
	stopped bool

	wake    chan struct{}
	hurry   chan struct{} // flush: skip the batching window
	done    chan struct{}
	removes []func()
}

func openJournal(dir *os.Root, _ uint64) (*journal, error) {
	name := filepath.Join(dir.Name(), JournalFile)
	f, _, err := readgate.OpenInRoot(dir, JournalFile, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be used: %s", name, readgate.Reason(err))
	}
	// A process killed in the middle of a line left it without its
	// newline: end it, so the next line starts clean.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			if _, err := f.Write([]byte{'\n'}); err != nil {
				_ = f.Close()
				return nil, fmt.Errorf("end the last line of %s: %w", JournalFile, err)
			}
		}
	}
	j := &journal{dir: dir, file: f, wake: make(chan struct{}, 1), hurry: make(chan struct{}, 1), done: make(chan struct{})}
	j.idle = sync.NewCond(&j.mu)
	go j.run()
	return j, nil
}

// add queues snap. It is called with the store locked, so versions arrive
// in order; it only appends to a slice (snapshots share the store's items,
// which the store never modifies).
func (j *journal) add(snap todo.Snapshot) {
	j.mu.Lock()
	j.queue = append(j.queue, snap)
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
}

func (j *journal) onClose(remove func()) {
	j.mu.Lock()
	j.removes = append(j.removes, remove)
	j.mu.Unlock()
}

// batchWindow is the least time between two writes of the files: a change
// after a quiet spell is written at once, but a burst of versions is written
// in batches, one todos.json per window, so that the writes cost the writer
// little CPU however fast it goes. Watchers still see a change within 100 ms.
const batchWindow = 10 * time.Millisecond

// run writes batches until close.
func (j *journal) run() {
	defer close(j.done)
	var line []byte
	var spare []todo.Snapshot
	var last time.Time
	timer := time.NewTimer(0)
	<-timer.C
	for {
		batch, ok := j.take(spare, last, timer)
		if !ok {
			return
		}
		line = line[:0]
		for _, snap := range batch {
			line = AppendVersion(line, snap)
			line = append(line, '\n')
		}
		err := j.write(line, batch[len(batch)-1])
		last = time.Now()
		clear(batch) // drop references to old lists
		spare = batch
		if err != nil {
			j.fail(err)
		}
	}
}

// take waits for versions in the queue and then, unless the journal is
// closing, for the rest of the batch window since the last write (flush
// cuts it short), and takes them all, leaving spare as the queue. ok is
// false when the journal is closed and everything written.
func (j *journal) take(spare []todo.Snapshot, last time.Time, timer *time.Timer) (batch []todo.Snapshot, ok bool) {
	j.mu.Lock()
	for len(j.queue) == 0 {
		j.writing = false
		j.idle.Broadcast()
		if j.stopped {
			j.mu.Unlock()
			return nil, false
		}
		j.mu.Unlock()
		<-j.wake
		j.mu.Lock()
	}
	j.writing = true
	if wait := batchWindow - time.Since(last); wait > 0 && !j.stopped {
		j.mu.Unlock()
		timer.Reset(wait)
		select {
		case <-timer.C:
		case <-j.hurry:
			if !timer.Stop() {
				<-timer.C
			}
		}
		j.mu.Lock()
	}
	batch = j.queue
	j.queue = spare[:0]
	j.writing = true
	j.mu.Unlock()
	return batch, true
}

// fail keeps the journal's first write error.
func (j *journal) fail(err error) {
	j.mu.Lock()
	if j.err == nil {
		j.err = err
	}
	j.mu.Unlock()
}

// write appends lines to todos.jsonl, then makes newest todos.json.
func (j *journal) write(lines []byte, newest todo.Snapshot) error {
	if _, err := j.file.Write(lines); err != nil {
		return fmt.Errorf("write %s: %w", JournalFile, err)
	}
	return writeAtomic(j.dir, TodosFile, todo.AppendList(make([]byte, 0, 256), newest.Items))
}

// flush waits until the queue is written.
func (j *journal) flush() error {
	select {
	case j.hurry <- struct{}{}:
	default:
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for len(j.queue) > 0 || j.writing {
		j.idle.Wait()
	}
	return j.err
}

// close stops recording, writes what is queued and closes the file.
func (j *journal) close() error {
	j.mu.Lock()
	removes := j.removes
	j.removes = nil
	j.mu.Unlock()
	for _, r := range removes {
		r()
	}
	err := j.flush()
	j.mu.Lock()
	j.stopped = true
	j.mu.Unlock()
	select {
	case j.wake <- struct{}{}:
	default:
	}
	<-j.done
	if cerr := j.file.Close(); err == nil {
		err = cerr
	}
	return err
}

// AppendVersion appends snap as one todos.jsonl line (without the newline):
// {"version":N,"time":"<RFC 3339>","tool_use_id":"…","todos":[...]}, the
// todos encoded exactly as TodoRead encodes them.
func AppendVersion(dst []byte, snap todo.Snapshot) []byte {
	return tools.AppendObject(dst).Uint("version", snap.Version).Time("time", snap.UpdatedAt.UTC()).
		String("tool_use_id", snap.ToolUseID).Value("todos", func(b []byte) []byte { return todo.AppendItems(b, snap.Items) }).Close()
}

// Version is one line of todos.jsonl.
type Version struct {
	Version   uint64      `json:"version"`
	Time      time.Time   `json:"time"`
	ToolUseID string      `json:"tool_use_id"`
	Todos     []todo.Item `json:"todos"`
}

// ReadVersions reads todos.jsonl from r. A line that is not a version (a
// line cut off by a crash, or damaged, or longer than readgate.MaxLine) is
// skipped and reported to warn with its line number. It holds every
// version: for a reader that needs only the newest, see Load.
func ReadVersions(r io.Reader, warn func(string)) ([]Version, error) {
	if warn == nil {
		warn = func(string) {}
	}
	var out []Version
	next := 1
	skipped, err := readgate.ScanLines(r, readgate.MaxLine, func(n int, line []byte) error {
		for ; next < n; next++ {
			warn(fmt.Sprintf("%s line %d skipped: longer than %d MiB", JournalFile, next, readgate.MaxLine>>20))
		}
		next = n + 1
		v, ok, why := parseVersion(line)
		switch {
		case ok:
			out = append(out, v)
		case why != "":
			warn(fmt.Sprintf("%s line %d skipped: %s", JournalFile, n, why))
		}
		return nil
	})
	for _, l := range skipped {
		if l.Line >= next {
			warn(fmt.Sprintf("%s line %d skipped: longer than %d MiB", JournalFile, l.Line, readgate.MaxLine>>20))
		}
	}
	return out, err
}

// parseVersion reads one todos.jsonl line: ok with the version, or why it
// is not one ("" for a blank line).
func parseVersion(line []byte) (v Version, ok bool, why string) {
	b := bytes.TrimSpace(line)
	if len(b) == 0 {
		return v, false, ""
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return v, false, err.Error()
	}
	if v.Version == 0 || v.Todos == nil {
		return v, false, "not a version"
	}
	return v, true, ""
}

// Load returns the newest version saved in the session directory at path:
// the last good line of todos.jsonl, or todos.json when the journal holds
// none. A session with neither has version 0 and no items. Both files go
// through the reading gate; one that fails it is skipped with a warning.
func Load(path string, warn func(string)) (todo.Snapshot, error) {
	if warn == nil {
		warn = func(string) {}
	}
	f, _, err := readgate.Open(filepath.Join(path, JournalFile))
	switch {
	case err == nil:
		defer func() { _ = f.Close() }() // only read
	case errors.Is(err, fs.ErrNotExist):
		f = nil
	default:
		warn(fmt.Sprintf("%s skipped: %s", filepath.Join(path, JournalFile), readgate.Reason(err)))
		f = nil
	}
	return load(path, f, warn)
}

// load is Load with todos.jsonl open as journal (nil: none). The journal is
// read from its end: only the lines after the newest good version are read,
// so memory and time do not grow with the number of versions.
func load(path string, journal *os.File, warn func(string)) (todo.Snapshot, error) {
	if journal != nil {
		found, err := lastVersion(journal, warn)
		if err != nil {
			return todo.Snapshot{}, err
		}
		if found != nil {
			return todo.Snapshot{Items: found.Todos, UpdatedAt: found.Time, Version: found.Version, ToolUseID: found.ToolUseID}, nil
		}
	}
	return loadList(path, warn), nil
}

// lastVersion returns the last good version of the journal (nil for
// none), warning about each line after it that is skipped.
func lastVersion(journal *os.File, warn func(string)) (*Version, error) {
	info, err := journal.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", JournalFile, err)
	}
	var found *Version
	// The lines read are the last ones, consecutive: the one read
	// last is line first, found by counting once, and each warning
	// is about the line visits lines before that one's end.
	type skip struct {
		visit int
		why   string
	}
	var skips []skip
	visits := 0
	var first int64
	err = readgate.LastLines(journal, info.Size(), readgate.MaxLine, func(start int64, line []byte, long bool) (bool, error) {
		visits++
		first = start
		if long {
			skips = append(skips, skip{visits, fmt.Sprintf("longer than %d MiB", readgate.MaxLine>>20)})
			return false, nil
		}
		v, ok, why := parseVersion(line)
		if ok {
			found = &v
			return true, nil
		}
		if why != "" {
			skips = append(skips, skip{visits, why})
		}
		return false, nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", JournalFile, err)
	}
	if len(skips) > 0 {
		n, err := readgate.LineNumber(journal, first)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", JournalFile, err)
		}
		for i := len(skips) - 1; i >= 0; i-- { // in the file's order
			warn(fmt.Sprintf("%s line %d skipped: %s", JournalFile, n+visits-skips[i].visit, skips[i].why))
		}
	}
	return found, nil
}

// loadList reads the list of todos.json in path, for a session without a
// journal version; an empty list when it is missing, and with a warning
// when it cannot be read.
func loadList(path string, warn func(string)) todo.Snapshot {
	name := filepath.Join(path, TodosFile)
	b, err := readgate.ReadFile(name, readgate.ListFile)
	if errors.Is(err, fs.ErrNotExist) {
		return todo.Snapshot{}
	}
	if err != nil {
		warn(fmt.Sprintf("%s skipped: %s", name, readgate.Reason(err)))
		return todo.Snapshot{}
	}
	var list struct {
		Todos []todo.Item `json:"todos"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		warn(fmt.Sprintf("%s is damaged (%v): starting with an empty list", TodosFile, err))
		return todo.Snapshot{}
	}
	if len(list.Todos) == 0 {
		return todo.Snapshot{}
	}
	return todo.Snapshot{Items: list.Todos, Version: 1}
}
