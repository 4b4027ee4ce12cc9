package hold

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Source names what a session's plan is read from.
type Source struct {
	// Transcript is the session's transcript ("" for none: a shared plan
	// on its own).
	Transcript string
	// Sidechains reads a Claude Code sub-agent's own transcript.
	Sidechains bool
	// TaskDir is the session's Claude Code task list directory
	// (~/.claude/tasks/<id>), read for the task list when the transcript
	// could be read only in part ("" for none).
	TaskDir string
	// PlanName and PlanDir name a shared task plan and its directory (""
	// for none).
	PlanName, PlanDir string
	// Owner is the name the agent acts as in the shared plan.
	Owner string
}

// Session is one read of a session's plan: open it, ask, close it.
type Session struct {
	store Store
	src   Source
	st    *State // what the files say now
	save  *State // what to keep; nil: nothing
	lock  *Lock
	// TaskFiles is the task list read from TaskDir, when it was.
	taskFiles *List
	// Partial is set when the transcript could be read only in part
	// (within the budget): its history before is not known.
	Partial bool
}

// ErrNoSource is Open's error when the source names no file to read.
var ErrNoSource = errors.New("no transcript and no shared plan to read")

// Open reads the plan of src, bringing its state up to date. budget caps
// the bytes of transcript read (0: no cap; see read). With wait it waits
// for the state's lock (a hook, which counts blocks); without, a state
// another process holds is read but not saved (a status line).
func Open(store Store, src Source, budget int64, wait bool) (*Session, error) {
	key := src.Transcript
	if key == "" {
		if src.PlanDir == "" {
			return nil, ErrNoSource
		}
		key = filepath.Join(src.PlanDir, task.JournalFile)
	}
	s := &Session{store: store, src: src}
	lock, err := store.Lock(key, wait)
	switch {
	case err == nil:
		s.lock = lock
	case errors.Is(err, errBusy):
	default:
		// No state directory to write in: read without one.
	}
	prev := store.Load(key)
	if src.Transcript == "" {
		s.st, s.save = prev.clone(), prev.clone()
	} else {
		live, save, err := read(prev, src, budget)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Not written yet (a session that has just started): no plan
			// yet; what the state holds besides (the context given) stays.
			s.st, s.save = prev.clone(), prev.clone()
		case err != nil:
			s.lock.Unlock()
			return nil, err
		default:
			s.st, s.save = live, save
			s.Partial = save == nil
		}
	}
	if src.PlanDir != "" {
		sh, err := readShared(s.st.Shared, src.PlanName, src.PlanDir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.lock.Unlock()
			return nil, err
		}
		s.st.Shared = sh
		if s.save != nil {
			s.save.Shared = sh
		}
	}
	if s.Partial && src.TaskDir != "" {
		if v, _, err := plan.ReadTaskList(src.TaskDir); err == nil && len(v.Todos) > 0 {
			s.taskFiles = listOf(v)
		}
	}
	if s.lock == nil {
		s.save = nil
	}
	s.st.Transcript = key
	if s.save != nil {
		s.save.Transcript = key
	}
	return s, nil
}

// Close keeps the state (when this read may) and releases the lock.
func (s *Session) Close() error {
	defer s.lock.Unlock()
	if s.save == nil {
		return nil
	}
	return s.store.Save(s.save)
}

// State is what the session's files say now.
func (s *Session) State() *State { return s.st }

// View is the plan as a status line shows it.
type View struct {
	// Items are the session's list, then its task list, then the shared
	// plan's tasks (as panel rows: "#2 Write the parser").
	Items []todo.Item
	// Dropped counts the items that left the plan unfinished since the
	// person's last prompt, and are not back.
	Dropped int
}

// View returns the plan as a status line shows it.
func (s *Session) View() View {
	var v View
	if s.st.Plan != nil {
		v.Items = append(v.Items, s.st.Plan.Items...)
	}
	tasks := s.st.Tasks
	if s.taskFiles != nil {
		tasks = s.taskFiles
	}
	if tasks != nil {
		v.Items = append(v.Items, plan.Display(tasks.version())...)
	}
	if sh := s.st.Shared; sh != nil {
		v.Items = append(v.Items, task.Rows(sh.State)...)
	}
	v.Dropped = len(s.losses())
	return v
}

// losses are the losses since the person's last prompt still standing:
// the transcript's, and the shared plan's since the prompt came.
func (s *Session) losses() []Loss {
	st := s.st
	out := settled(st.Losses, st.Plan)
	if st.Tasks != nil {
		out = settled(out, st.Tasks)
	}
	if sh := st.Shared; sh != nil {
		var cur []todo.Item
		for i := range sh.State.Tasks {
			cur = append(cur, todo.Item{Content: sh.State.Tasks[i].Subject, Status: sh.State.Tasks[i].Status})
		}
		for _, l := range settled(sh.Losses, &List{Items: cur}) {
			if l.Time.IsZero() || !l.Time.Before(st.Prompt.Time) {
				out = append(out, l)
			}
		}
	}
	return out
}
