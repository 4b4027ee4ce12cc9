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

	"golang.org/x/sys/unix"

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
	for i := range infos {
		if oks[i] {
			out = append(out, infos[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastChange.After(out[j].LastChange) })
	return out, nil
}

// Stat sums up the session directory at path; ok is false when it is not a
// directory. It works relative to the directory (openat, fstatat): a
// dozen cheap system calls per session.
func Stat(path string) (Info, bool) {
	dfd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return Info{}, false
	}
	dir := os.NewFile(uintptr(dfd), path) // closes dfd
	defer func() { _ = dir.Close() }()    // only read
	var st unix.Stat_t
	if unix.Fstat(dfd, &st) != nil {
		return Info{}, false
	}
	info := Info{ID: filepath.Base(path), Path: path, LastChange: mtime(&st)}
	names, _ := dir.Readdirnames(-1)
	lockHeld := false
	var metaSize, todosSize int64 = -1, -1
	for _, name := range names {
		if unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR {
			continue
		}
		switch name {
		case LockFile:
			lockHeld = st.Size > 0 // a holder writes its pid; Close empties it
		case MetaFile:
			metaSize = st.Size
		case TodosFile:
			todosSize = st.Size
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
	if b := readAt(dfd, MetaFile, metaSize); b != nil {
		var m Meta
		if json.Unmarshal(b, &m) == nil {
			info.Mode, info.Created, info.Dir, info.AgentTurns = m.Mode, m.Created, m.Dir, m.AgentTurns
		}
	}
	if b := readAt(dfd, TodosFile, todosSize); b != nil {
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

// readAt reads the file name of about size bytes in the directory dfd; nil
// when there is none.
func readAt(dfd int, name string, size int64) []byte {
	if size < 0 || size > 16<<20 {
		return nil
	}
	fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer func() { _ = unix.Close(fd) }() // only read
	buf := make([]byte, size+512)         // room if it grew since fstatat
	n := 0
	for n < len(buf) {
		k, err := unix.Read(fd, buf[n:])
		if k <= 0 || err != nil {
			break
		}
		n += k
	}
	return buf[:n]
}

func mtime(st *unix.Stat_t) time.Time { return time.Unix(st.Mtim.Unix()) }

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
	for i := range list {
		info := &list[i]
		if info.Live || !info.LastChange.Before(cutoff) {
			continue
		}
		if dryRun {
			out = append(out, Removed{Info: *info})
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
		_ = lock.Close() // the directory is gone; closing unlocks
		out = append(out, Removed{Info: *info, Err: err})
	}
	return out, nil
}
