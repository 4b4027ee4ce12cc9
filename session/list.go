package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

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
	Bytes      int64  `json:"bytes"`
	AgentTurns int    `json:"agent_turns"`
	Live       bool   `json:"live"`
	PID        int    `json:"pid,omitempty"` // the live holder
	Path       string `json:"-"`
}

// known are the files of the format; anything else not hidden is an
// offloaded result.
var known = map[string]bool{TodosFile: true, JournalFile: true, MetaFile: true, LockFile: true, TranscriptFile: true}

// anyList are limits any saved list meets.
var anyList = todo.Limits{MaxItems: 1 << 30, MaxContentLength: 1 << 30}

// List sums up every session under dir, most recently changed first. A
// directory that does not exist holds no sessions.
func List(dir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if e.IsDir() && offload.CheckID("", e.Name()) == nil {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	// Each session costs a dozen system calls: spread them over the CPUs.
	infos := make([]Info, len(paths))
	oks := make([]bool, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				infos[i], oks[i] = Stat(paths[i])
			}
		}()
	}
	wg.Wait()
	out := make([]Info, 0, len(paths))
	for i, info := range infos {
		if oks[i] {
			out = append(out, info)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastChange.After(out[j].LastChange) })
	return out, nil
}

// Stat sums up the session directory at path; ok is false when it is not a
// directory.
func Stat(path string) (Info, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return Info{}, false
	}
	info := Info{ID: filepath.Base(path), Path: path, LastChange: st.ModTime()}
	entries, err := os.ReadDir(path)
	if err != nil {
		return info, true
	}
	lockHeld := false
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || fi.IsDir() {
			continue
		}
		if e.Name() == LockFile {
			lockHeld = fi.Size() > 0 // a holder writes its pid; Close empties it
		}
		info.Bytes += fi.Size()
		if fi.ModTime().After(info.LastChange) {
			info.LastChange = fi.ModTime()
		}
		if name := e.Name(); !known[name] && !isTemp(name) {
			info.Files++
			info.FilesBytes += fi.Size()
		}
	}
	if b, err := os.ReadFile(filepath.Join(path, MetaFile)); err == nil {
		var m Meta
		if json.Unmarshal(b, &m) == nil {
			info.Mode, info.Created, info.Dir, info.AgentTurns = m.Mode, m.Created, m.Dir, m.AgentTurns
		}
	}
	if b, err := os.ReadFile(filepath.Join(path, TodosFile)); err == nil {
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
	if lockHeld {
		info.Live, info.PID = Live(path)
	}
	return info, true
}

// Latest returns the id of the most recently changed session under dir, or
// "" when there is none.
func Latest(dir string) (string, error) {
	list, err := List(dir)
	if err != nil || len(list) == 0 {
		return "", err
	}
	return list[0].ID, nil
}

// Removed is a session Clean removed (or would remove).
type Removed struct {
	Info
	Err error // why it could not be removed
}

// Clean removes every session under dir whose last change is before
// cutoff, whole, skipping live ones; with dryRun it only says which it
// would remove.
func Clean(dir string, cutoff time.Time, dryRun bool) ([]Removed, error) {
	list, err := List(dir)
	if err != nil {
		return nil, err
	}
	var out []Removed
	for _, info := range list {
		if info.Live || !info.LastChange.Before(cutoff) {
			continue
		}
		if dryRun {
			out = append(out, Removed{Info: info})
			continue
		}
		// Hold the lock while removing, so no process starts using the
		// session in the meantime (acquire checks that its lock file is
		// still the one in the directory).
		lock := lockForRemoval(info.Path)
		if lock == nil {
			continue // it came alive
		}
		err := os.RemoveAll(info.Path)
		lock.Close()
		out = append(out, Removed{Info: info, Err: err})
	}
	return out, nil
}
