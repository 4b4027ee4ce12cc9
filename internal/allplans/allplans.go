// Package allplans finds every live plan on this machine and follows them
// all at once, for `todo-shell watch --all`: todo-shell sessions, Claude
// Code sessions and task lists, Codex, Gemini CLI and opencode sessions
// (opencode's from its SQLite database, internal/opencodedb), and
// todo-shell's shared task plans (--plan NAME). A plan is live while its
// file changed less than MaxAge ago; a todo-shell session whose process has
// ended and whose list is empty is not shown at all. It uses fsnotify on the
// directories where each agent keeps its sessions (one watch a directory,
// added as directories appear): it sleeps in the kernel while nothing
// changes, with one timer for the next plan to go stale. Every file is read
// through the reading gate; a session file is read from where the last read
// stopped, whole lines only.
package allplans

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
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/todo-shell/todo-shell/internal/opencodedb"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Agent names of todo-shell's own plans.
const (
	agentSession = "todo-shell"      // a session's todo list
	agentPlan    = "todo-shell plan" // a shared task plan (--plan NAME)
)

// Entry is one live plan.
type Entry struct {
	Agent   string // "Claude Code", "Claude Code tasks", "Codex", "Gemini CLI", "opencode", "todo-shell", "todo-shell plan"
	Project string // the project directory, or what names the plan
	Path    string // the session file, the task-list directory, or opencode's database#session
	// Session is a todo-shell session's id ("" for others): shown on its
	// box, for `todo-shell watch ID`.
	Session string
	Version *plan.Version // the newest version
	Changed time.Time     // when its file last changed
}

// Config says where to look.
type Config struct {
	Home      string // the home directory
	ClaudeDir string // ~/.claude ($CLAUDE_CONFIG_DIR)
	CodexDir  string // ~/.codex ($CODEX_HOME)
	// OpencodeDB is opencode's database
	// (~/.local/share/opencode/opencode.db, opencodedb.Path); "" for none.
	OpencodeDB string
	OffloadDir string        // todo-shell's offload directory of this project
	PlansDir   string        // where todo-shell's shared task plans are ($XDG_STATE_HOME/todo-shell/plans)
	MaxAge     time.Duration // a plan idle longer drops out (0: one hour)
	Now        func() time.Time
}

// source is one kind of place plans are kept: files depth directories
// below root whose name match accepts.
type source struct {
	agent    string
	root     string
	depth    int
	match    func(path string) bool
	taskList bool // the plan is the directory of the matched files
	journal  bool // the file is a task plan's journal (tasks.jsonl)
	opencode bool // the matched file is opencode's database (or its -wal)
}

func (c *Config) sources() []source {
	var s []source
	if c.OffloadDir != "" {
		// A session's todo list and its task plan: one entry, as the
		// shell's panel shows them (the todos, then the tasks).
		s = append(s, source{agent: agentSession, root: c.OffloadDir, depth: 1,
			match: func(p string) bool { b := filepath.Base(p); return b == session.JournalFile || b == task.JournalFile }})
	}
	if c.PlansDir != "" {
		s = append(s, source{agent: agentPlan, root: c.PlansDir, depth: 1, journal: true,
			match: func(p string) bool { return filepath.Base(p) == task.JournalFile }})
	}
	s = append(s,
		source{agent: "Claude Code", root: filepath.Join(c.ClaudeDir, "projects"), depth: 1, match: func(p string) bool {
			b := filepath.Base(p)
			return strings.HasSuffix(b, ".jsonl") && !strings.HasPrefix(b, "agent-")
		}},
		source{agent: "Claude Code tasks", root: filepath.Join(c.ClaudeDir, "tasks"), depth: 1, taskList: true, match: func(p string) bool {
			b := filepath.Base(p)
			return strings.HasSuffix(b, ".json") && !strings.HasPrefix(b, ".")
		}},
		source{agent: "Codex", root: filepath.Join(c.CodexDir, "sessions"), depth: 3, match: func(p string) bool {
			b := filepath.Base(p)
			return strings.HasPrefix(b, "rollout-") && strings.HasSuffix(b, ".jsonl")
		}},
		source{agent: "Gemini CLI", root: filepath.Join(c.Home, ".gemini", "tmp"), depth: 2, match: func(p string) bool {
			b := filepath.Base(p)
			return filepath.Base(filepath.Dir(p)) == "chats" && strings.HasPrefix(b, "session-") && strings.HasSuffix(b, ".jsonl")
		}},
	)
	if c.OpencodeDB != "" {
		name := filepath.Base(c.OpencodeDB)
		s = append(s, source{agent: "opencode", root: filepath.Dir(c.OpencodeDB), depth: 0, opencode: true, match: func(p string) bool {
			b := filepath.Base(p)
			return b == name || b == name+"-wal" || b == name+"-journal"
		}})
	}
	return s
}

// tail is what has been read of one session file.
type tail struct {
	off     int64
	partial []byte
	p       plan.Parser
	tasks   task.State // a task plan's journal: the plan as read so far
}

// Watcher follows the live plans.
type Watcher struct {
	cfg     Config
	srcs    []source
	w       *fsnotify.Watcher
	dirs    map[string]int // watched directory -> its source
	tails   map[string]*tail
	entries map[string]*Entry // by Path
	// sessions are the two parts of each todo-shell session's entry, by
	// the session's directory.
	sessions map[string]*sessionParts
	gemini   map[string]string    // Gemini CLI's short project names -> directories
	oc       *opencodedb.DB       // opencode's database, once open
	ocInfo   os.FileInfo          // its file then
	names    map[[2]uint64]string // the name each file (device, inode) is read under
	// warning says why opencode's database could not be read the last
	// time ("" once it is read again): its entries read before stay.
	warning string
}

// New returns a Watcher for cfg; Close it.
func New(cfg Config) (*Watcher, error) {
	if cfg.MaxAge == 0 {
		cfg.MaxAge = time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch --all: %w", err)
	}
	x := &Watcher{cfg: cfg, srcs: cfg.sources(), w: w, dirs: map[string]int{}, tails: map[string]*tail{}, entries: map[string]*Entry{}, sessions: map[string]*sessionParts{}, names: map[[2]uint64]string{}}
	x.gemini = geminiProjects(filepath.Join(cfg.Home, ".gemini", "projects.json"))
	for i := range x.srcs {
		if !x.addTree(i, x.srcs[i].root, 0) {
			x.waitFor(x.srcs[i].root)
		}
	}
	return x, nil
}

// Close stops watching.
func (x *Watcher) Close() error {
	return x.w.Close()
}

// addTree watches dir (level below its source's root) and the directories
// under it down to the level of the files, and reads the files there that
// changed within MaxAge.
func (x *Watcher) addTree(src int, dir string, level int) bool {
	if err := x.w.Add(dir); err != nil {
		return false // not there (yet), or not a directory
	}
	x.dirs[dir] = src
	entries, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	s := &x.srcs[src]
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case level < s.depth && e.IsDir():
			x.addTree(src, p, level+1)
		case level == s.depth && !e.IsDir() && s.match(p):
			if info, err := e.Info(); err == nil && x.cfg.Now().Sub(info.ModTime()) < x.cfg.MaxAge {
				x.update(src, p, info.ModTime())
			}
		}
	}
	return true
}

// waitFor watches the nearest existing directory above a root that does
// not exist yet, so that its creation is seen.
func (x *Watcher) waitFor(root string) {
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if x.w.Add(dir) == nil || dir == filepath.Dir(dir) {
			return
		}
	}
}

// level returns how far below its source's root dir is.
func (x *Watcher) level(src int, dir string) int {
	rel, err := filepath.Rel(x.srcs[src].root, dir)
	if err != nil || rel == "." {
		return 0
	}
	return strings.Count(rel, string(filepath.Separator)) + 1
}

// handle takes one fsnotify event; it reports whether the entries changed.
func (x *Watcher) handle(ev fsnotify.Event) bool {
	dir := filepath.Dir(ev.Name)
	src, ok := x.dirs[dir]
	if !ok {
		// A root, or a directory on the way to one, may have appeared.
		if !ev.Has(fsnotify.Create) {
			return false
		}
		changed := false
		for i := range x.srcs {
			root := x.srcs[i].root
			if _, watched := x.dirs[root]; watched {
				continue
			}
			if ev.Name == root {
				changed = x.addTree(i, root, 0) || changed
			} else if strings.HasPrefix(root, ev.Name+string(filepath.Separator)) {
				_ = x.w.Add(ev.Name)
				if x.addTree(i, root, 0) {
					changed = true
				} else {
					x.waitFor(root)
				}
			}
		}
		return changed
	}
	s := &x.srcs[src]
	lv := x.level(src, dir) + 1 // the level of ev.Name
	if lv <= s.depth {
		if ev.Has(fsnotify.Create) {
			x.addTree(src, ev.Name, lv)
			return true
		}
		return false
	}
	if !s.match(ev.Name) {
		if s.agent == agentSession && filepath.Base(ev.Name) == session.LockFile {
			// The session ended (or started again): an empty list is
			// shown only while its session is live.
			_, ok := x.entries[filepath.Join(dir, session.JournalFile)]
			return ok
		}
		return false
	}
	if s.opencode {
		// The database, its WAL, or its journal gone (a commit done).
		return x.update(src, ev.Name, x.cfg.Now())
	}
	info, err := os.Lstat(ev.Name)
	if err != nil {
		if s.taskList {
			return x.update(src, ev.Name, x.cfg.Now())
		}
		return false
	}
	return x.update(src, ev.Name, info.ModTime())
}

// update reads what changed in a session file (or a task list) and
// reports whether its entry changed.
func (x *Watcher) update(src int, path string, mod time.Time) bool {
	s := &x.srcs[src]
	if s.opencode {
		return x.updateOpencode(x.cfg.OpencodeDB)
	}
	if s.taskList {
		return x.updateTaskList(s, filepath.Dir(path), mod)
	}
	if !x.own(path) {
		return false // a hard link to a file read under another name
	}
	t := x.tails[path]
	if t == nil {
		t = &tail{}
		x.tails[path] = t
	}
	var last *plan.Version
	if s.journal || (s.agent == agentSession && filepath.Base(path) == task.JournalFile) {
		if t.off == 0 {
			t.tasks = task.NewState()
		}
		read := func(line []byte) {
			if rec, ok := task.ApplyLine(&t.tasks, line); ok {
				last = planVersion(t.tasks, rec)
			}
		}
		if err := t.read(path, read); err != nil || last == nil {
			return false
		}
	} else {
		emit := func(e plan.Event) {
			if e.Kind == plan.KindVersion {
				last = e.Version
			}
		}
		read := func(line []byte) { _ = t.p.Feed(line, emit) } // an unreadable line is skipped
		if err := t.read(path, read); err != nil || last == nil {
			return false
		}
	}
	if s.agent == agentSession {
		return x.updateSession(src, path, last, mod)
	}
	e := x.entries[path]
	if e == nil {
		e = &Entry{Agent: s.agent, Path: path}
		x.entries[path] = e
	}
	e.Version, e.Changed = last, mod
	e.Project = x.project(src, path, &t.p)
	return true
}

// sessionParts are the newest versions of a todo-shell session's todo list
// and of its task plan.
type sessionParts struct{ todos, tasks *plan.Version }

// own reports whether path is the name its file is read under: the first
// name seen of a file hard-linked under several (each file is read once,
// however many names it has). A file that cannot be looked at is its
// own.
func (x *Watcher) own(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	k := [2]uint64{uint64(st.Dev), st.Ino} //nolint:unconvert // Dev is not uint64 everywhere
	if owner, seen := x.names[k]; seen && owner != path {
		if _, err := os.Lstat(owner); err == nil {
			return false
		}
	}
	x.names[k] = path
	return true
}

// updateSession takes v, the newest version of a session's todo list or
// of its task plan (path says which), into the session's one entry: its
// todos, then its tasks, as the shell's panel shows them. The entry's
// Path is the session's todos.jsonl.
func (x *Watcher) updateSession(src int, path string, v *plan.Version, mod time.Time) bool {
	dir := filepath.Dir(path)
	parts := x.sessions[dir]
	if parts == nil {
		parts = &sessionParts{}
		x.sessions[dir] = parts
	}
	if filepath.Base(path) == task.JournalFile {
		parts.tasks = v
	} else {
		parts.todos = v
	}
	key := filepath.Join(dir, session.JournalFile)
	e := x.entries[key]
	if e == nil {
		e = &Entry{Agent: agentSession, Path: key, Session: filepath.Base(dir)}
		x.entries[key] = e
	}
	e.Version = parts.merged()
	if mod.After(e.Changed) {
		e.Changed = mod
	}
	e.Project = x.project(src, key, &plan.Parser{})
	return true
}

// merged is the session's plan as one list: the todos, then the tasks.
// Its number counts the versions of both.
func (p *sessionParts) merged() *plan.Version {
	switch {
	case p.tasks == nil:
		return p.todos
	case p.todos == nil:
		return p.tasks
	}
	todos, tasks := plan.Display(p.todos), plan.Display(p.tasks)
	v := *p.todos
	v.N = p.todos.N + p.tasks.N
	v.Todos = append(append(make([]todo.Item, 0, len(todos)+len(tasks)), todos...), tasks...)
	v.Keys, v.Info = nil, nil
	return &v
}

// updateTaskList reads the task list in dir, a source s watches, and
// reports whether its entry changed.
func (x *Watcher) updateTaskList(s *source, dir string, mod time.Time) bool {
	v, _, err := plan.ReadTaskList(dir)
	if err != nil || len(v.Todos) == 0 {
		delete(x.entries, dir)
		return true
	}
	e := x.entries[dir]
	if e != nil && plan.SameList(e.Version, v) {
		return false
	}
	if e == nil {
		e = &Entry{Agent: s.agent, Project: "list " + filepath.Base(dir), Path: dir}
		x.entries[dir] = e
	}
	v.N = 1
	if e.Version != nil {
		v.N = e.Version.N + 1
	}
	e.Version, e.Changed = v, mod
	return true
}

// updateOpencode reads opencode's database: an entry for each session
// updated within MaxAge that has a plan (keyed database#session). A read
// that fails (a damaged file, one checkpointed during every try) changes
// nothing; the next change reads again.
func (x *Watcher) updateOpencode(db string) bool {
	if fi, err := os.Lstat(db); err != nil || (x.ocInfo != nil && !os.SameFile(fi, x.ocInfo)) {
		x.oc, x.ocInfo = nil, nil // gone or replaced: what was read of it is no use
	}
	if x.oc == nil {
		oc, err := opencodedb.Open(db)
		if err != nil {
			return x.warn(db, err)
		}
		fi, err := os.Lstat(db)
		if err != nil {
			return false
		}
		x.oc, x.ocInfo = oc, fi
	}
	now := x.cfg.Now()
	sessions, versions, err := x.oc.Live(now.Add(-x.cfg.MaxAge))
	_ = x.oc.Skipped() // the panel has no room for them; watch --opencode says them
	if err != nil {
		return x.warn(db, err)
	}
	changed := x.warning != "" // recovered: the warning goes
	x.warning = ""
	for i, ss := range sessions {
		key := db + "#" + ss.ID
		e := x.entries[key]
		vs := versions[i]
		last := vs[len(vs)-1]
		if e != nil && e.Version.N == last.N && plan.SameList(e.Version, last) && e.Changed.Equal(ss.Updated) {
			continue
		}
		if e == nil {
			e = &Entry{Agent: "opencode", Project: ss.Directory, Path: key}
			x.entries[key] = e
		}
		e.Version, e.Changed = last, ss.Updated
		changed = true
	}
	return changed
}

// warn keeps why opencode's database at db could not be read, and reports
// whether that is news. A database that is not there is no problem.
func (x *Watcher) warn(db string, err error) bool {
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	w := opencodedb.Problem(db, err)
	changed := w != x.warning
	x.warning = w
	return changed
}

// project is how an entry's project is shown.
func (x *Watcher) project(src int, path string, p *plan.Parser) string {
	if cwd := p.Cwd(); cwd != "" {
		return cwd
	}
	switch x.srcs[src].agent {
	case agentPlan:
		return filepath.Base(filepath.Dir(path)) // the plan's name
	case agentSession:
		return filepath.Dir(filepath.Dir(filepath.Dir(path))) // <project>/.offload/<session>/todos.jsonl
	case "Gemini CLI":
		name := filepath.Base(filepath.Dir(filepath.Dir(path)))
		if d := x.gemini[name]; d != "" {
			return d
		}
		return name
	}
	return filepath.Base(filepath.Dir(path))
}

// planVersion is a task plan's version as a panel shows it: the tasks as
// rows, keyed by their ids.
func planVersion(st task.State, rec task.Record) *plan.Version {
	v := &plan.Version{N: int(st.Version), Time: rec.Time, ToolUseID: rec.ToolUseID, Todos: task.Rows(st), Keys: make([]string, len(st.Tasks)), Tasks: true}
	for i := range st.Tasks {
		v.Keys[i] = st.Tasks[i].ID
	}
	return v
}

// read feeds the whole lines added to path since the last read to line.
func (t *tail) read(path string, line func([]byte)) error {
	f, info, err := readgate.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	if info.Size() < t.off {
		*t = tail{tasks: task.NewState()} // replaced or cut: read again
	}
	if _, err := f.Seek(t.off, io.SeekStart); err != nil {
		return err
	}
	buf := make([]byte, 64<<10)
	for {
		n, rerr := f.Read(buf)
		t.off += int64(n)
		chunk := buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				if len(t.partial)+len(chunk) > readgate.MaxLine {
					t.partial = t.partial[:0] // a line over the cap is skipped
				} else {
					t.partial = append(t.partial, chunk...)
				}
				break
			}
			l := chunk[:i]
			if len(t.partial) > 0 {
				t.partial = append(t.partial, l...)
				l = t.partial
			}
			line(l)
			t.partial = t.partial[:0]
			chunk = chunk[i+1:]
		}
		if errors.Is(rerr, io.EOF) || n == 0 {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}

// Entries returns the live plans, most recently changed first, and drops
// those idle longer than MaxAge. A todo-shell session with an empty list
// is left out once its process has ended (its lock released): nothing is
// coming to it.
func (x *Watcher) Entries() []Entry {
	now := x.cfg.Now()
	out := make([]Entry, 0, len(x.entries))
	for k, e := range x.entries {
		if now.Sub(e.Changed) >= x.cfg.MaxAge {
			delete(x.entries, k)
			continue
		}
		if e.Agent == agentSession && len(e.Version.Todos) == 0 {
			if live, _ := session.Live(filepath.Dir(e.Path)); !live {
				continue
			}
		}
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Changed.Equal(out[j].Changed) {
			return out[i].Changed.After(out[j].Changed)
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// Warning says why a source could not be read the last time ("" when
// every one was), as Run sends it.
func (x *Watcher) Warning() string { return x.warning }

// nextExpiry is when the next live plan goes stale (zero for none).
func (x *Watcher) nextExpiry() time.Time {
	var t time.Time
	for _, e := range x.entries {
		if at := e.Changed.Add(x.cfg.MaxAge); t.IsZero() || at.Before(t) {
			t = at
		}
	}
	return t
}

// Run sends the live plans once at the start and after every change, and
// when one goes stale, until ctx ends; with them, why a source could not
// be read the last time ("" when every one was: a damaged opencode.db,
// say).
func (x *Watcher) Run(ctx context.Context, send func(es []Entry, warning string)) error {
	send(x.Entries(), x.warning)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	arm := func() {
		timer.Stop()
		if at := x.nextExpiry(); !at.IsZero() {
			timer.Reset(max(at.Sub(x.cfg.Now()), time.Millisecond))
		}
	}
	arm()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-x.w.Errors:
			if !ok {
				return nil
			}
			return fmt.Errorf("watch --all: %w", err)
		case ev, ok := <-x.w.Events:
			if !ok {
				return nil
			}
			changed := x.handle(ev)
			// Take the events already queued before drawing.
			for more := true; more; {
				select {
				case ev := <-x.w.Events:
					changed = x.handle(ev) || changed
				default:
					more = false
				}
			}
			if changed {
				send(x.Entries(), x.warning)
				arm()
			}
		case <-timer.C:
			send(x.Entries(), x.warning)
			arm()
		}
	}
}

// geminiProjects reads Gemini CLI's projects.json the other way round:
// short name -> directory.
func geminiProjects(path string) map[string]string {
	b, err := readgate.ReadFile(path, readgate.ListFile)
	if err != nil {
		return nil
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(b, &reg) != nil {
		return nil
	}
	out := make(map[string]string, len(reg.Projects))
	for dir, name := range reg.Projects {
		out[name] = dir
	}
	return out
}
