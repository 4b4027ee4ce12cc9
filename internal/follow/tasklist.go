package follow

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/todo-shell/todo-shell/internal/plan"
)

// selfFollower is a Target that follows itself: Follow and Once hand it
// the work.
type selfFollower interface {
	follow(ctx context.Context, send func(Update)) error
	once() (Update, error)
}

// TaskList follows a Claude Code task list: the directory
// ~/.claude/tasks/<list-id>/ that one session, or several sharing
// CLAUDE_CODE_TASK_LIST_ID (agent teams), keep their tasks in, one <id>.json
// per task. The files hold only the present: every change, by any process,
// is read as the whole list again (through the reading gate), and is a new
// version when the list differs. A directory that does not exist yet is
// waited for.
type TaskList struct {
	Dir string
}

func (l TaskList) root() string                         { return filepath.Dir(l.Dir) }
func (l TaskList) pick() (string, error)                { return l.Dir, nil }
func (l TaskList) isCandidate(path string) bool         { return path == l.Dir }
func (l TaskList) file(c string) (string, string)       { return c, c }
func (l TaskList) name(string) string                   { return "task list " + filepath.Base(l.Dir) }
func (l TaskList) journal() bool                        { return false }
func (l TaskList) newest() bool                         { return false }
func (l TaskList) better(string, string) (bool, string) { return false, "" }

func (l TaskList) once() (Update, error) {
	v, skipped, err := plan.ReadTaskList(l.Dir)
	if err != nil {
		return Update{}, err
	}
	v.N = 1
	return Update{Source: l.name(""), Version: v, New: []*plan.Version{v}, Warnings: skipped}, nil
}

func (l TaskList) follow(ctx context.Context, send func(Update)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer func() { _ = w.Close() }()
	// Watch the list's parent for the list to appear, and the list.
	if err := watchNearest(w, filepath.Dir(l.Dir)); err != nil {
		return err
	}
	var last *plan.Version
	said := "" // the warnings said with the last update
	n := 0
	watching := false
	read := func() {
		if !watching {
			if w.Add(l.Dir) != nil {
				return
			}
			watching = true
		}
		v, skipped, err := plan.ReadTaskList(l.Dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				_ = w.Remove(l.Dir)
				watching = false
			}
			return
		}
		warnings := skipped
		if plan.SameList(last, v) {
			if w := strings.Join(warnings, "\n"); w != said {
				said = w
				send(Update{Source: l.name(""), Version: last, Warnings: warnings})
			}
			return
		}
		said = strings.Join(warnings, "\n")
		n++
		v.N = n
		if fi, err := os.Stat(l.Dir); err == nil {
			v.Time = fi.ModTime()
		}
		last = v
		send(Update{Source: l.name(""), Version: v, New: []*plan.Version{v}, Warnings: warnings})
	}
	read()
	if last == nil {
		send(Update{Source: l.name("")})
	}
	return watchEvents(ctx, w, func(ev fsnotify.Event) error {
		if ev.Name == l.Dir || filepath.Dir(ev.Name) == l.Dir {
			read()
		} else if !watching && ev.Has(fsnotify.Create) && strings.HasPrefix(l.Dir, ev.Name+string(filepath.Separator)) {
			// A directory on the way to the list appeared.
			_ = w.Add(ev.Name)
			read()
		}
		return nil
	})
}

// watchNearest watches dir or, when it does not exist, the nearest
// directory above it that does.
func watchNearest(w *fsnotify.Watcher, dir string) error {
	for ; ; dir = filepath.Dir(dir) {
		err := w.Add(dir)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return fmt.Errorf("watch %s: %w", dir, err)
		}
	}
}
