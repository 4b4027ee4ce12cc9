package cmd

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
)

// withSessionTasks is src, which follows todo-shell sessions in offDir
// (follow.Session), with each session's task plan after its todos, as the
// shell's own panel shows them: every update carries the todos of its
// session and then the tasks as rows, and a change of the task plan is an
// update too. A session with tasks and no todo list shows its tasks.
func withSessionTasks(src watchui.Source, offDir string) watchui.Source {
	return watchui.Source{
		Once: func() (follow.Update, error) {
			u, err := src.Once()
			if err != nil || u.Source == "" {
				return u, err
			}
			dir, ok := sessionPath(offDir, u.Source)
			if !ok {
				return u, nil
			}
			st, err := task.ReadDir(dir, nil)
			if err != nil {
				return u, nil // no task plan to read: the todos alone
			}
			return mergeTasks(u, st), nil
		},
		Follow: func(ctx context.Context, send func(follow.Update)) error {
			f := &sessionTasks{ctx: ctx, offDir: offDir, send: send}
			defer f.stop()
			return src.Follow(ctx, f.todos)
		},
	}
}

// sessionPath is the directory of the session named source (an id, as
// follow names a session) in offDir; ok is false for a name that is not
// an id.
func sessionPath(offDir, source string) (string, bool) {
	if offload.CheckID("session id", source) != nil {
		return "", false
	}
	return filepath.Join(offDir, source), true
}

// sessionTasks merges the task plan of the session followed into its
// updates.
type sessionTasks struct {
	ctx    context.Context
	offDir string
	send   func(follow.Update)

	mu     sync.Mutex
	source string        // the session followed
	last   follow.Update // its last update
	tasks  task.State    // its task plan
	cancel func()        // stops following the task plan
	done   chan struct{}
}

// todos takes an update of the todo list: a new session gets its task plan
// followed.
func (f *sessionTasks) todos(u follow.Update) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if u.Source != f.source {
		f.stopLocked()
		f.source, f.tasks = u.Source, task.State{}
		if dir, ok := sessionPath(f.offDir, u.Source); ok && u.Source != "" {
			f.startLocked(dir, u.Source)
		}
	}
	f.last = u
	f.send(mergeTasks(u, f.tasks))
}

// startLocked follows the task plan in dir, of the session source.
func (f *sessionTasks) startLocked(dir, source string) {
	ctx, cancel := context.WithCancel(f.ctx)
	done := make(chan struct{})
	f.cancel, f.done = cancel, done
	go func() {
		defer close(done)
		_ = task.Watch(ctx, dir, func(st task.State, _ task.Record) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.source != source || ctx.Err() != nil {
				return
			}
			f.tasks = st
			u := f.last
			u.New, u.Note, u.Warnings = nil, "", nil // said with the todos already
			f.send(mergeTasks(u, st))
		})
	}()
}

// stopLocked stops following the task plan, if one is followed. The
// follower may be waiting for f.mu in its callback: it gives up there.
func (f *sessionTasks) stopLocked() {
	if f.cancel == nil {
		return
	}
	f.cancel()
	f.cancel = nil
	done := f.done
	f.mu.Unlock()
	<-done
	f.mu.Lock()
}

func (f *sessionTasks) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopLocked()
}

// mergeTasks is u with the tasks of st after its todos, as the shell's
// panel shows them (task.Rows); u itself when st has no task.
// The version keeps the todo list's number, or the plan's when there is no
// todo list.
func mergeTasks(u follow.Update, st task.State) follow.Update {
	if len(st.Tasks) == 0 {
		return u
	}
	rows := task.Rows(st)
	v := &plan.Version{N: int(st.Version)}
	if u.Version != nil {
		c := *u.Version
		v = &c
		v.Todos = append(append(v.Todos[:0:0], plan.Display(u.Version)...), rows...)
		v.Keys, v.Info = nil, nil
	} else {
		v.Todos = rows
	}
	u.Version = v
	u.NoPlan = false
	return u
}
