package hold

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// stateVersion is the version of the state file's form; a file of another
// version is ignored (the transcript is read again).
const stateVersion = 1

// StateDirName is the directory, under todo-shell's state directory
// ($XDG_STATE_HOME/todo-shell), that holds one state file per transcript.
const StateDirName = "hooks"

// State is what is known of one transcript, as its state file keeps it.
type State struct {
	V int `json:"v"`
	// Transcript is the file read, and Dev and Ino the file it was: a file
	// put in its place is read again from the start.
	Transcript string `json:"transcript"`
	Dev        uint64 `json:"dev"`
	Ino        uint64 `json:"ino"`
	// Offset is where reading goes on: the end of a line after which no
	// plan call waited for its result. Tail is the hash of the bytes just
	// before it (up to tailBytes), to tell a file rewritten in place.
	Offset int64  `json:"offset"`
	Tail   string `json:"tail"`
	// Start is where the first read began: 0, or a line near the end of a
	// transcript that was already long when first seen.
	Start int64 `json:"start"`
	// Format is the transcript's format as package plan names it.
	Format string `json:"format,omitempty"`

	// Plan is the latest version of the session's list (TodoWrite,
	// update_plan, write_todos); Tasks that of its task list (the Task
	// tools). Either is nil before its first version.
	Plan  *List `json:"plan,omitempty"`
	Tasks *List `json:"tasks,omitempty"`
	// Prompt is the person's last prompt.
	Prompt Prompt `json:"prompt"`
	// Losses are the items that left the plan unfinished since the prompt.
	Losses []Loss `json:"losses,omitempty"`
	// Interrupted is set when the person interrupted the agent after the
	// plan's latest version (or before any): a prompt after it does not
	// clear it, a new plan version does.
	Interrupted bool `json:"interrupted,omitempty"`

	// Blocks counts the stops held in one prompt.
	Blocks Blocks `json:"blocks"`
	// Context is one more than the version of the shared plan last given
	// to the agent as context (0: none yet), so the same plan is not sent
	// with every prompt.
	Context uint64 `json:"context,omitempty"`
	// Shared is the shared plan, as far as it was read.
	Shared *Shared `json:"shared,omitempty"`
}

// List is a plan version as the state keeps it.
type List struct {
	Items []todo.Item     `json:"items"`
	Keys  []string        `json:"keys,omitempty"`
	Info  []plan.ItemInfo `json:"info,omitempty"`
	Tasks bool            `json:"tasks,omitempty"`
	Own   bool            `json:"own,omitempty"`
	Time  time.Time       `json:"time"`
}

// version is l as a plan.Version (nil for nil).
func (l *List) version() *plan.Version {
	if l == nil {
		return nil
	}
	return &plan.Version{Todos: l.Items, Keys: l.Keys, Info: l.Info, Tasks: l.Tasks, OwnRules: l.Own, Time: l.Time}
}

// listOf is v as a List.
func listOf(v *plan.Version) *List {
	if v == nil {
		return nil
	}
	return &List{Items: v.Todos, Keys: v.Keys, Info: v.Info, Tasks: v.Tasks, Own: v.OwnRules, Time: v.Time}
}

// Prompt is a prompt of the person's: its id (the agent's, or where it
// was read), where in the transcript it was and when.
type Prompt struct {
	ID     string    `json:"id,omitempty"`
	Offset int64     `json:"offset"`
	Time   time.Time `json:"time"`
}

// Blocks is how many stops were held in the prompt Prompt.
type Blocks struct {
	Prompt string `json:"prompt,omitempty"`
	N      int    `json:"n"`
}

// Shared is a shared task plan (todo-shell's plan directory) as far as its
// journal was read.
type Shared struct {
	Name   string     `json:"name"`
	Dev    uint64     `json:"dev"`
	Ino    uint64     `json:"ino"`
	Offset int64      `json:"offset"`
	State  task.State `json:"state"`
	// Creators names who created each task still in the plan.
	Creators map[string]string `json:"creators,omitempty"`
	// Losses are the tasks that left the plan unfinished, each with when.
	Losses []Loss `json:"losses,omitempty"`
}

// Loss is an item that left the plan unfinished.
type Loss struct {
	Item string `json:"item"`          // its text then
	Key  string `json:"key,omitempty"` // its id, for a task
	Was  string `json:"was"`           // its status then: pending or in_progress
	How  string `json:"how"`           // LossRemoved, LossReplaced, LossDoneRenamed, LossCancelled
	To   string `json:"to,omitempty"`  // what it became (LossReplaced, LossDoneRenamed)
	// Task is set for a task of a task list (it was deleted, not removed).
	Task bool      `json:"task,omitempty"`
	Time time.Time `json:"time"`
}

// How an item left the plan unfinished.
const (
	// LossRemoved: it is no longer in the list.
	LossRemoved = "removed"
	// LossReplaced: another item took its place in the same change (its
	// words changed too much to be the same item: reworded away).
	LossReplaced = "replaced"
	// LossDoneRenamed: reworded and marked completed in the same change.
	LossDoneRenamed = "done-renamed"
	// LossCancelled: marked cancelled (Gemini CLI's list).
	LossCancelled = "cancelled"
)

// Store is where state files live: one per transcript, and a lock file
// beside each.
type Store struct {
	Dir string // $XDG_STATE_HOME/todo-shell/hooks
}

// key names the state file of a transcript: its base name, neutralised,
// and a hash of its whole path.
func key(transcript string) string {
	sum := sha256.Sum256([]byte(transcript))
	base := strings.TrimSuffix(filepath.Base(transcript), filepath.Ext(transcript))
	var b strings.Builder
	for _, r := range base {
		if b.Len() >= 64 {
			break
		}
		if r < 128 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return strings.TrimLeft(b.String(), ".") + "-" + hex.EncodeToString(sum[:6])
}

// Path is the state file of transcript.
func (s Store) Path(transcript string) string {
	return filepath.Join(s.Dir, key(transcript)+".json")
}

// Lock is a held lock on a transcript's state.
type Lock struct{ f *os.File }

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
}

// errBusy is Lock's answer, with wait false, while another process holds
// the lock.
var errBusy = errors.New("state busy")

// Lock locks the state of transcript against other processes: wait makes
// it wait; without, a lock held elsewhere is errBusy.
func (s Store) Lock(transcript string, wait bool) (*Lock, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	f, _, err := readgate.OpenFile(filepath.Join(s.Dir, key(transcript)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state lock: %w", err)
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errBusy
		}
		return nil, fmt.Errorf("state lock: %w", err)
	}
	return &Lock{f: f}, nil
}

// Load reads the state of transcript; a missing, unreadable or foreign
// state file is a fresh State (the transcript is then read anew).
func (s Store) Load(transcript string) *State {
	b, err := readgate.ReadFile(s.Path(transcript), readgate.ListFile)
	if err != nil {
		return &State{V: stateVersion, Transcript: transcript}
	}
	var st State
	if json.Unmarshal(b, &st) != nil || st.V != stateVersion || st.Transcript != transcript || st.Offset < 0 || st.Start < 0 {
		return &State{V: stateVersion, Transcript: transcript}
	}
	return &st
}

// Save writes st as the state of its transcript: a temporary file in the
// same directory, renamed over the old one.
func (s Store) Save(st *State) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	path := s.Path(st.Transcript)
	f, err := os.CreateTemp(s.Dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("state: %w", werr)
	}
	return nil
}

// Prune removes the state and lock files not changed for longer than age
// (sessions long over), and temporary files left by a killed writer.
func (s Store) Prune(age time.Duration, now time.Time) {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		old := now.Sub(info.ModTime())
		switch {
		case strings.HasPrefix(name, ".") && old > time.Minute:
		case (strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".lock")) && old > age:
		default:
			continue
		}
		_ = os.Remove(filepath.Join(s.Dir, name))
	}
}

// fileID returns the device and inode of info.
func fileID(info fs.FileInfo) (dev, ino uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino //nolint:unconvert // Dev is not uint64 everywhere
	}
	return 0, 0
}
