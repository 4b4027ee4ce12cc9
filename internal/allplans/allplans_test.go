package allplans

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

func copyFixture(t *testing.T, name, to string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "plan", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(to), 0o700)
	s := string(b)
	if edit != nil {
		s = edit(s)
	}
	if err := os.WriteFile(to, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAllAgents finds the plans of four agents, follows one growing, and
// drops a plan that went stale.
func TestAllAgents(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	claude := filepath.Join(home, ".claude")
	copyFixture(t, "claude-code-2.1.330_tasks.jsonl", filepath.Join(claude, "projects", "-src-app", "s1.jsonl"), nil)
	copyFixture(t, "claude-code-2.1.330_tasklist/1.json", filepath.Join(claude, "tasks", "team", "1.json"), nil)
	copyFixture(t, "codex-0.169.0_rollout.jsonl", filepath.Join(home, ".codex", "sessions", "2026", "11", "25", "rollout-a.jsonl"), nil)
	copyFixture(t, "gemini-cli-0.61.0_session.jsonl", filepath.Join(home, ".gemini", "tmp", "gem", "chats", "session-a.jsonl"), nil)
	os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(`{"projects":{"/src/gem":"gem"}}`), 0o600)
	// A session idle for two hours is not live.
	old := filepath.Join(claude, "projects", "-src-old", "s0.jsonl")
	copyFixture(t, "claude-code-2.1.330_todowrite.jsonl", old, nil)
	then := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, then, then)

	w, err := New(Config{Home: home, ClaudeDir: claude, CodexDir: filepath.Join(home, ".codex")})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := w.Entries()
	agents := map[string]string{}
	for _, e := range got {
		agents[e.Agent] = e.Project
	}
	if len(got) != 4 || agents["Claude Code"] != "/tmp/rec/p-tasks" || agents["Codex"] != "/tmp/rec/p-codex" ||
		agents["Gemini CLI"] != "/src/gem" || agents["Claude Code tasks"] != "list team" {
		t.Fatalf("%d entries: %v", len(got), agents)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan []Entry, 100)
	go w.Run(ctx, func(e []Entry, _ string) { updates <- e })
	<-updates
	// A new Gemini session starts and writes its first plan.
	path := filepath.Join(home, ".gemini", "tmp", "gem", "chats", "session-b.jsonl")
	lines, _ := os.ReadFile(filepath.Join("..", "plan", "testdata", "gemini-cli-0.61.0_session.jsonl"))
	f, _ := os.Create(path)
	defer f.Close()
	for _, l := range strings.SplitAfter(string(lines), "\n")[:7] {
		f.WriteString(l)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case es := <-updates:
			// (Files written within the same clock tick have the same
			// time: find the new one by its path, not its place.)
			i := slices.IndexFunc(es, func(e Entry) bool { return e.Path == path })
			if len(es) == 5 && i >= 0 && es[i].Version.N == 1 {
				// (watchui draws these as the entry's box: TestAllBox.)
				e := &es[i]
				if done, total, doing := progress(e); e.Agent != "Gemini CLI" || e.Project != "/src/gem" || done != 0 || total != 3 || doing != "Write the parser" {
					t.Errorf("entry %s · %s: %d/%d, doing %q", e.Agent, e.Project, done, total, doing)
				}
				return
			}
		case <-deadline:
			t.Fatal("the new session never showed")
		}
	}
}

func TestStale(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	claude := filepath.Join(home, ".claude")
	copyFixture(t, "claude-code-2.1.330_tasks.jsonl", filepath.Join(claude, "projects", "-src-app", "s1.jsonl"), nil)
	now := time.Now()
	w, err := New(Config{Home: home, ClaudeDir: claude, CodexDir: filepath.Join(home, ".codex"), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(w.Entries()) != 1 {
		t.Fatal("not live")
	}
	now = now.Add(61 * time.Minute)
	if len(w.Entries()) != 0 {
		t.Fatal("still live after an hour")
	}
}

// TestSessionTodosAndTasksAreOneEntry: a todo-shell session's todo list
// and task plan are one entry, the todos then the tasks, as the shell's
// panel shows them (issue 29, item 7); a session with tasks only has one
// too.
func TestSessionTodosAndTasksAreOneEntry(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	off := filepath.Join(home, "proj", ".offload")
	mix, only := filepath.Join(off, "mix"), filepath.Join(off, "only")
	os.MkdirAll(mix, 0o700)
	os.MkdirAll(only, 0o700)
	todos := `{"version":1,"time":"2026-11-28T08:57:08Z","tool_use_id":"toolu_1","todos":[{"content":"A","status":"completed","activeForm":"Doing A"},{"content":"B","status":"in_progress","activeForm":"Doing B"}]}` + "\n"
	tasks := `{"version":1,"time":"2026-11-28T08:57:09Z","tool_use_id":"toolu_2","tool":"TaskCreate","input":{},"set":[{"id":"1","subject":"T1","description":"d","status":"in_progress","blocks":[],"blockedBy":[]}],"next_id":2}` + "\n"
	os.WriteFile(filepath.Join(mix, "todos.jsonl"), []byte(todos), 0o600)
	os.WriteFile(filepath.Join(mix, "tasks.jsonl"), []byte(tasks), 0o600)
	os.WriteFile(filepath.Join(only, "todos.jsonl"), nil, 0o600)
	os.WriteFile(filepath.Join(only, "tasks.jsonl"), []byte(tasks), 0o600)
	w, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), OffloadDir: off})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := w.Entries()
	if len(got) != 2 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	for _, e := range got {
		done, total, doing := progress(&e)
		switch e.Session {
		case "mix":
			if len(e.Version.Todos) != 3 || done != 1 || total != 3 || e.Path != filepath.Join(mix, "todos.jsonl") {
				t.Errorf("mix: %+v: %d/%d", e.Version, done, total)
			}
		case "only":
			if len(e.Version.Todos) != 1 || doing != "#1 T1" {
				t.Errorf("only: %+v: doing %q", e.Version, doing)
			}
		default:
			t.Errorf("entry %+v", e)
		}
	}
}

// TestHardLinksReadOnce: 50 Claude Code transcripts that are hard links to
// one are read once, shown once.
func TestHardLinksReadOnce(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	proj := filepath.Join(home, ".claude", "projects", "-src-app")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../plan/testdata/claude-code-2.1.330_todowrite.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(proj, "00000000-0000-0000-0000-000000000000.jsonl")
	if err := os.WriteFile(first, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 50; i++ {
		if err := os.Link(first, filepath.Join(proj, fmt.Sprintf("00000000-0000-0000-0000-%012d.jsonl", i))); err != nil {
			t.Fatal(err)
		}
	}
	x, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), MaxAge: 1000 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := x.Entries(); len(got) != 1 || len(x.tails) != 1 {
		t.Fatalf("%d entries, %d files read", len(got), len(x.tails))
	}
}

// progress is what an entry's box shows: how many of its items are done,
// of how many, and the activeForm of the one in progress.
func progress(e *Entry) (done, total int, doing string) {
	list := plan.Display(e.Version)
	done, _, _ = todo.Snapshot{Items: list}.Counts()
	for _, it := range list {
		if it.Status == todo.StatusInProgress {
			doing = it.ActiveForm
			break
		}
	}
	return done, len(list), doing
}
