package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Info sums up one session directory for `todo-shell sessions`.
type Info struct {
	ID         string    `json:"id"`
	LastChange time.Time `json:"last_change"`
	Created    time.Time `json:"created,omitzero"`
	Mode       string    `json:"mode"`
	Dir        string    `json:"dir,omitempty"`
	Done       int       `json:"done"`
	Total      int       `json:"total"`
	// InProgress is the activeForm of the first in_progress item.
	InProgress string `json:"in_progress"`
	Files      int    `json:"files"`       // offloaded results
	FilesBytes int64  `json:"files_bytes"` // their size
	// Bytes is the size of everything in the directory.
	Bytes      int64 `json:"bytes"`
	AgentTurns int   `json:"agent_turns"`
	Live       bool  `json:"live"`
	PID        int   `json:"pid,omitempty"` // the live holder
	// Warnings name the session's files that failed the reading gate (a
	// symbolic link, a FIFO, a file too large) and were skipped.
	Warnings []string `json:"warnings,omitempty"`
	Path     string   `json:"-"`

	journalBytes, tasksBytes int64
	conversation             bool // the transcript holds a response of the model
	lockBad                  bool // the lock failed the gate
	budget                   *readgate.Budget
}

// HasWork reports whether the session holds something to continue: a plan
// version (todos or tasks) or a conversation, one response of the model at
// least. An agent session whose only turn failed (an API error) holds a
// request and no response: nothing to continue.
func (i *Info) HasWork() bool { return i.journalBytes > 0 || i.tasksBytes > 0 || i.conversation }

// HasPlan reports whether the session has written a plan version: of its
// todo list or of its task plan (the shell's panel shows both).
func (i *Info) HasPlan() bool { return i.journalBytes > 0 || i.tasksBytes > 0 }

// known are the files of the format; anything else not hidden is an
// offloaded result.
var known = map[string]bool{TodosFile: true, JournalFile: true, MetaFile: true, LockFile: true, TranscriptFile: true, OffloadsFile: true,
	// The task plan's files (package tools/task).
	"tasks.json": true, tasksJournal: true, "tasks.lock": true}

// anyList are limits any saved list meets.
var anyList = todo.Limits{MaxItems: 1 << 30, MaxContentLength: 1 << 30}

// List sums up every session under dir, most recently changed first. A
// directory that does not exist holds no sessions. Of a directory of more
// than readgate.MaxDirEntries entries, the sessions among the first are
// listed, with an error wrapping readgate.ErrBudget that says so.
func List(dir string) ([]Info, error) { return listAtMost(dir, readgate.MaxDirEntries) }

// listAtMost is List reading at most maxEntries entries of dir.
func listAtMost(dir string, maxEntries int) ([]Info, error) {
	var paths []string
	capped := readgate.EachEntry(dir, maxEntries, func(e fs.DirEntry) bool {
		if e.IsDir() && offload.CheckID("", e.Name()) == nil {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
		return true
	})
	if capped != nil && !errors.Is(capped, readgate.ErrBudget) {
		if errors.Is(capped, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, capped
	}
	// Each session costs a dozen system calls: spread them over the CPUs.
	// The files read count against one budget for the whole list.
	budget := readgate.NewBudget(maxListBytes, len(paths)*2)
	infos := make([]Info, len(paths))
	oks := make([]bool, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				infos[i], oks[i] = stat(paths[i], budget)
			}
		}()
	}
	wg.Wait()
	out := make([]Info, 0, len(paths))
	for i := range infos {
		if oks[i] {
			out = append(out, infos[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastChange.After(out[j].LastChange) })
	return out, capped
}

// Stat sums up the session directory at path; ok is false when it is not a
// directory. It works relative to the directory (openat, fstatat): a
// dozen cheap system calls per session. A file of the format that fails
// the reading gate is skipped and named in Warnings.
func Stat(path string) (Info, bool) {
	return stat(path, readgate.NewBudget(readgate.SmallFile+readgate.ListFile, 2))
}

// maxListBytes caps what one List reads of all the sessions' files
// (session.json and todos.json), each counted once however many hard
// links name it.
const maxListBytes = 256 << 20

// stat is Stat, the files read counting against budget.
func stat(path string, budget *readgate.Budget) (Info, bool) {
	dfd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return Info{}, false
	}
	dir := os.NewFile(uintptr(dfd), path) // closes dfd
	defer func() { _ = dir.Close() }()    // only read
	var st unix.Stat_t
	if unix.Fstat(dfd, &st) != nil {
		return Info{}, false
	}
	info := Info{ID: filepath.Base(path), Path: path, LastChange: mtime(&st), budget: budget}
	names, _ := dir.Readdirnames(-1)
	lockHeld, transcript := info.scan(dfd, path, names)
	info.fillMeta(dfd)
	info.fillTodos(dfd)
	// agent_turns counts the responses; a transcript without it (written
	// before it was counted, or session.json lost) is read to find one.
	info.conversation = transcript && (info.AgentTurns > 0 || hasResponse(dfd, path))
	if lockHeld {
		info.Live, info.PID = Live(path)
	}
	return info, true
}

// scan adds up names, the entries of the session directory at path (open
// as dfd) into info: sizes, the latest change, the files the session
// wrote, and a warning for each of its own files that is not a regular
// file. lockHeld says the lock file holds a pid, transcript that a
// non-empty transcript is there.
func (info *Info) scan(dfd int, path string, names []string) (lockHeld, transcript bool) {
	var st unix.Stat_t
	for _, name := range names {
		if unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR {
			continue
		}
		switch name {
		case LockFile:
			lockHeld = st.Size > 0 // a holder writes its pid; Close empties it
		case JournalFile:
			info.journalBytes = st.Size
		case TranscriptFile:
			transcript = st.Size > 0 && st.Mode&unix.S_IFMT == unix.S_IFREG
		case tasksJournal:
			info.tasksBytes = st.Size
		}
		if known[name] && st.Mode&unix.S_IFMT != unix.S_IFREG {
			// Say why through the gate, in its words.
			_, _, err := readgate.OpenAt(dfd, path, name)
			if err == nil {
				err = readgate.ErrNotRegular
			}
			info.Warnings = append(info.Warnings, skipped(path, name, err))
			if name == LockFile {
				info.lockBad, lockHeld = true, false
			}
			continue
		}
		info.Bytes += st.Size
		if t := mtime(&st); t.After(info.LastChange) {
			info.LastChange = t
		}
		if !known[name] && !isTemp(name) {
			info.Files++
			info.FilesBytes += st.Size
		}
	}
	return lockHeld, transcript
}

// fillMeta fills in what session.json says: the mode, the creation time,
// the working directory and the agent's turns.
func (info *Info) fillMeta(dfd int) {
	if b := info.read(dfd, MetaFile, readgate.SmallFile); b != nil {
		var m Meta
		if json.Unmarshal(b, &m) == nil {
			info.Mode, info.Created, info.Dir, info.AgentTurns = m.Mode, m.Created, m.Dir, m.AgentTurns
		}
	}
}

// fillTodos fills in the plan's progress from todos.json: how many items,
// how many done, and the first in progress.
func (info *Info) fillTodos(dfd int) {
	if b := info.read(dfd, TodosFile, readgate.ListFile); b != nil {
		// todo.Validate's scanner is several times faster than
		// encoding/json, and todos.json is a list TodoWrite accepted.
		if items, err := todo.Validate(b, anyList); err == nil {
			info.Total = len(items)
			for _, it := range items {
				switch it.Status {
				case todo.StatusCompleted:
					info.Done++
				case todo.StatusInProgress:
					if info.InProgress == "" {
						info.InProgress = it.ActiveForm
					}
				}
			}
		}
	}
}

// tasksJournal is the task plan's journal (package tools/task).
const tasksJournal = "tasks.jsonl"

// hasResponse reports whether the transcript of the session at path (open
// as dfd) holds a response line; it reads through the gate, up to the
// first one.
func hasResponse(dfd int, path string) bool {
	f, _, err := readgate.OpenAt(dfd, path, TranscriptFile)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }() // only read
	r := bufio.NewReaderSize(f, 64<<10)
	start := true // at the start of a line
	for {
		line, err := r.ReadSlice('\n')
		if start && bytes.HasPrefix(line, []byte(`{"type":"response"`)) {
			return true
		}
		switch {
		case err == nil:
			start = true
		case errors.Is(err, bufio.ErrBufferFull):
			start = false // the rest of a long line
		default:
			return false
		}
	}
}

// read reads the file name of the session through the gate; nil when it is
// missing or fails the gate (then named in Warnings, once).
func (info *Info) read(dfd int, name string, limit int64) []byte {
	b, err := info.budget.ReadFileAt(dfd, info.Path, name, limit)
	if err != nil {
		w := skipped(info.Path, name, err)
		if !errors.Is(err, fs.ErrNotExist) && !slices.Contains(info.Warnings, w) {
			info.Warnings = append(info.Warnings, w)
		}
		return nil
	}
	return b
}

// skipped is the warning for the file name of the session at path that
// failed the gate with err.
func skipped(path, name string, err error) string {
	return filepath.Join(path, name) + " skipped: " + readgate.Reason(err)
}

func mtime(st *unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }

// Latest returns the id of the most recently changed session under dir
// that has something to continue (see Info.HasWork), or ""
// when there is none. A session whose files fail the reading gate is passed
// over; passed lists the warnings of those newer than the one returned.
func Latest(dir string) (id string, passed []string, err error) {
	list, err := List(dir)
	if err != nil {
		return "", nil, err
	}
	for i := range list {
		info := &list[i]
		if len(info.Warnings) > 0 {
			passed = append(passed, info.Warnings...)
			continue
		}
		if info.HasWork() {
			return info.ID, passed, nil
		}
	}
	return "", passed, nil
}

// Removed is a session Clean removed (or would remove), or passed over.
type Removed struct {
	Info
	Err error // why it could not be removed
	// Skipped, when not empty, says why Clean left the session alone.
	Skipped string
}

// Clean removes every session under dir whose last change is before
// cutoff, whole, skipping live ones; with dryRun it only says which it
// would remove. A session old enough that it leaves alone (its lock is not
// a regular file, or it came alive) is in the result with Skipped set.
func Clean(dir string, cutoff time.Time, dryRun bool) ([]Removed, error) {
	list, err := List(dir)
	if err != nil {
		return nil, err
	}
	var out []Removed
	for i := range list {
		info := &list[i]
		if info.Live || !info.LastChange.Before(cutoff) {
			continue
		}
		if info.lockBad {
			out = append(out, Removed{Info: *info, Skipped: "its lock cannot be taken: " + strings.Join(info.Warnings, "; ")})
			continue
		}
		if dryRun {
			out = append(out, Removed{Info: *info})
			continue
		}
		// Hold the lock while removing, so no process starts using the
		// session in the meantime (acquire checks that its lock file is
		// still the one in the directory).
		lock, err := lockForRemoval(info.Path)
		if err != nil {
			why := "it came alive: " + err.Error()
			if !errors.Is(err, errLive) {
				why = "its lock cannot be taken: " + filepath.Join(info.Path, LockFile) + ": " + readgate.Reason(err)
			}
			out = append(out, Removed{Info: *info, Skipped: why})
			continue
		}
		err = os.RemoveAll(info.Path)
		_ = lock.Close() // the directory is gone (or failed to go: err says so)
		out = append(out, Removed{Info: *info, Err: err})
	}
	return out, nil
}
