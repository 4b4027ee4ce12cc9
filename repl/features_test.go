package repl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"

	tea "charm.land/bubbletea/v2"

	"context"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/complete"
	histfile "github.com/todo-shell/todo-shell/repl/history"
	"github.com/todo-shell/todo-shell/repl/interactive"
	"github.com/todo-shell/todo-shell/repl/markdown"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

// deltaAgent answers every prompt with its deltas, then the whole text.
// With gate set, it waits for it to close after the first delta.
type deltaAgent struct {
	deltas []string
	gate   chan struct{}
}

func (a *deltaAgent) Run(ctx context.Context, prompt string, emit func(agent.Event)) (agent.Result, error) {
	for i, d := range a.deltas {
		emit(agent.TextDelta{Text: d})
		if i == 0 && a.gate != nil {
			<-a.gate
		}
	}
	full := strings.Join(a.deltas, "")
	emit(agent.TextDone{Text: full})
	return agent.Result{Text: full, NumTurns: 1}, nil
}

func startWith(t *testing.T, w, h int, edit func(*Config)) (*testTerm, string) {
	cfg, offDir := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	edit(&cfg)
	tm := runShell(t, cfg, w, h)
	return tm, offDir
}

// waitPrinted waits until the scrollback holds every one of what, the
// same text counted as many times as it is listed.
func waitPrinted(t *testing.T, what ...string) {
	t.Helper()
	need := map[string]int{}
	for _, w := range what {
		need[w]++
	}
	testwait.For(t, 10*time.Second, fmt.Sprintf("%q in the scrollback", what), func() bool {
		tr := lastTranscript.String()
		for w, n := range need {
			if strings.Count(tr, w) < n {
				return false
			}
		}
		return true
	}, lastTranscript.String)
}

func press(tm *testTerm, k tea.KeyPressMsg) { tm.Send(k) }

func TestHistoryLastsAndIgnoresSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	os.WriteFile(path, []byte(`"echo from before"`+"\n"), 0o600)
	h, _ := histfile.Open(path)
	tm, _ := startWith(t, 60, 20, func(c *Config) { c.History = h })
	enter(tm, "echo one")
	waitPrinted(t, "❯ echo one\none\n")
	enter(tm, " echo secret")
	waitPrinted(t, "\nsecret\n")
	enter(tm, "echo one")
	waitPrinted(t, "❯ echo one\n", "❯ echo one\n", "\none\n", "\none\n") // ran twice
	// Up recalls this session's line first, then the file's.
	press(tm, tea.KeyPressMsg{Code: tea.KeyUp})
	press(tm, tea.KeyPressMsg{Code: tea.KeyUp})
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitPrinted(t, "\nfrom before\n")
	finalView(t, tm)
	raw, _ := os.ReadFile(path)
	if got := string(raw); got != "\"echo from before\"\n\"echo one\"\n\"echo from before\"\n" {
		t.Fatalf("history file:\n%s", got)
	}
}

func TestCtrlRSearch(t *testing.T) {
	h, _ := histfile.Open("")
	for _, l := range []string{"echo alpha", "printf 'q1\\n'", "echo beta", "printf 'q2\\n'"} {
		h.Add(l)
	}
	tm, _ := startWith(t, 80, 20, func(c *Config) { c.History = h })
	tm.Type("draft")
	press(tm, ctrlKey('r'))
	tm.Type("q")
	waitFor(t, tm, "(reverse-i-search)'q': printf 'q2\\n'")
	press(tm, ctrlKey('r'))
	waitFor(t, tm, "(reverse-i-search)'q': printf 'q1\\n'")
	tm.Type("zz")
	waitFor(t, tm, "(failed reverse-i-search)'qzz'")
	press(tm, tea.KeyPressMsg{Code: tea.KeyEscape}) // cancel: what was typed comes back
	waitFor(t, tm, "❯ draft")
	press(tm, ctrlKey('r'))
	tm.Type("al")
	press(tm, tea.KeyPressMsg{Code: tea.KeyRight}) // accept for editing
	tm.Type("!")
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitPrinted(t, "\nalpha!\n")
	press(tm, ctrlKey('r'))
	tm.Type("q1")
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter}) // runs the match
	waitPrinted(t, "\nq1\n")
	press(tm, ctrlKey('r'))
	tm.Type("beta")
	press(tm, ctrlKey('g'))
	finalView(t, tm)
	if tr := lastTranscript.String(); strings.Contains(tr, "\nbeta") {
		t.Fatalf("Ctrl+G ran the match:\n%s", tr)
	}
}

func TestTabCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"report one.txt", "report two.txt", "readme.md"} {
		os.WriteFile(filepath.Join(dir, n), []byte(n+"\n"), 0o644)
	}
	tm, _ := startWith(t, 80, 20, func(c *Config) {
		c.Dir = func() string { return dir }
		c.Shell.Executor.Has("TodoWrite")
		c.Completer = &complete.Completer{
			Builtins: []string{"/help", "/history", "/tools"},
			Commands: []string{"TodoWrite", "TodoRead"},
			Dir:      func() string { return dir },
			Arg: func(string) (string, string, bool) {
				plan, _ := c.Plan.Last() // the todo list: this test has no tasks
				return todo.EditableArg(plan.Items), "the current list", true
			},
		}
	})
	tm.Type("/he")
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab})
	waitFor(t, tm, "❯ /help") // trailing blanks are not drawn
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitPrinted(t, "❯ /help", "Agent commands")
	tm.Type("cat rep")
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab}) // common prefix, then the list
	waitFor(t, tm, `cat 'report`, "report one.txt  report two.txt")
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab}) // cycles
	waitFor(t, tm, `cat 'report one.txt'`)
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab})
	waitFor(t, tm, `cat 'report two.txt'`)
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitPrinted(t, "❯ cat 'report two.txt' \n")
	enter(tm, writeTwo)
	waitPrinted(t, "Todo list updated")
	tm.Type("TodoW")
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab})
	press(tm, tea.KeyPressMsg{Code: tea.KeyTab}) // after "TodoWrite ": the list
	press(tm, tea.KeyPressMsg{Code: tea.KeyEnter})
	waitPrinted(t, `"content": "Run tests"`)
	waitPrinted(t, "Todo list updated: 0 completed, 1 in_progress, 1 pending\n", "Todo list updated: 0 completed, 1 in_progress, 1 pending\n")
	finalView(t, tm)
}

func TestPromptBranchAndStatus(t *testing.T) {
	tm, _ := startWith(t, 80, 20, func(c *Config) {})
	enter(tm, "(exit 7)")
	waitFor(t, tm, "project ✗7 ❯")
	enter(tm, "echo ok")
	waitPrinted(t, "project ✗7 ❯ echo ok\nok\n")
	enter(tm, "echo x")
	waitPrinted(t, "project ❯ echo x\nx\n")
	v := finalView(t, tm)
	if !strings.HasPrefix(v, "project ❯") {
		t.Fatalf("status mark stayed: %q", v)
	}
}

func TestPromptAfterCdShowsBranch(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/topic\n"), 0o644)
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	set, err := toolset.New(toolset.Options{Limits: todo.DefaultLimits(), Offload: cfg.Shell.Offload, BashTimeout: time.Minute, Dir: root, Plain: render.PlainPlan})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Shell = &router.Shell{Executor: set.Executor, Offload: cfg.Shell.Offload}
	cfg.Plan = set.Plan
	cfg.Dir = set.Runner.Dir
	tm := runShell(t, cfg, 80, 20)
	enter(tm, "cd "+repo)
	waitFor(t, tm, "repo (topic) ❯")
	finalView(t, tm)
}

func TestAttachedProgramsAndOffloads(t *testing.T) {
	tm, _ := startWith(t, 100, 20, func(c *Config) {
		dir := t.TempDir()
		c.Dir = func() string { return dir }
		c.Interactive = interactive.New("mytool")
		c.Pager = "head -n 2"
	})
	enter(tm, "seq 1 2000")
	waitPrinted(t, "… 1990 more lines")
	enter(tm, "/offloads")
	waitPrinted(t, "2000  seq 1 2000")
	enter(tm, "/open")
	waitFor(t, tm, "1\n2\n") // head's output, on the terminal
	waitPrinted(t, "(ran in the terminal; exit status 0)")
	enter(tm, "/open 9")
	waitPrinted(t, "usage: /open [N] with N from 1 to 1")
	enter(tm, "/offloads")
	waitPrinted(t, "✗1 ❯ /offloads") // the failed /open's status
	enter(tm, "/tty exit 4")
	waitPrinted(t, "(ran in the terminal; exit status 4)")
	enter(tm, "/tty kill -TERM $$")
	waitPrinted(t, "(ran in the terminal; exit status 143)")
	enter(tm, "/tty exit 4")
	waitPrinted(t, "(ran in the terminal; exit status 4)", "(ran in the terminal; exit status 4)")
	enter(tm, "/trace on")
	enter(tm, "mytool() { echo attached; }; mytool")
	waitPrinted(t, "✗4 ❯ /trace on", `"content":"Ran attached to the terminal; its output went to the terminal, not into this result.\nExit status: 0"`)
	finalView(t, tm)
}

func TestHelpWrapped(t *testing.T) {
	tm, _ := startWith(t, 50, 30, func(c *Config) {})
	enter(tm, "/help")
	waitPrinted(t, "Agent commands")
	enter(tm, "TodoWrite -h")
	waitPrinted(t, "❯ TodoWrite -h\n")
	enter(tm, "echo done")
	waitPrinted(t, "\ndone\n")
	finalView(t, tm)
	for _, l := range strings.Split(lastTranscript.String(), "\n") {
		if w := len([]rune(l)); w > 49 {
			t.Fatalf("line of %d cells at width 50: %q", w, l)
		}
	}
}

func TestAgentMarkdownPerBlock(t *testing.T) {
	st := markdown.PlainStyles()
	fa := &deltaAgent{deltas: []string{"# Plan\n\n- one\n", "- two\n\nSome **bold** text"}, gate: make(chan struct{})}
	tm, _ := startWith(t, 60, 20, func(c *Config) { c.Agent = fa; c.Markdown = &st })
	enter(tm, "go")
	// The heading is a finished block: drawn while the answer still streams.
	waitPrinted(t, "# Plan\n")
	if strings.Contains(lastTranscript.String(), "• one") {
		t.Fatal("an unfinished block was printed")
	}
	close(fa.gate)
	waitPrinted(t, "# Plan\n", "• one\n• two\n", "Some bold text")
	finalView(t, tm)
	_ = render.Sanitize
}

// BenchmarkCtrlRKeystroke is one keystroke typed into a Ctrl+R search over
// 10,000 entries, through Update and the redrawn view, where the query
// matches only the oldest entry (a full scan).
func BenchmarkCtrlRKeystroke(b *testing.B) {
	cfg, _ := testConfig(b)
	h, _ := histfile.Open("")
	h.Add("needle in the haystack")
	for i := range histfile.MaxEntries - 1 {
		h.Add("kubectl get pods --namespace team-" + strings.Repeat("x", i%7) + " -o wide | grep -v Running " + string(rune('a'+i%26)))
	}
	cfg.History = h
	m := New(cfg)
	for b.Loop() {
		mm, _ := m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}) // a fresh search
		for _, r := range "needle" {
			mm, _ = mm.Update(textKey(string(r)))
		}
		if v := mm.View().Content; !strings.Contains(v, "needle in the haystack") {
			b.Fatal(v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/7/1000, "ms/keystroke")
}

// BenchmarkTabOn10kFiles is Tab after "cat big/file-0" in a directory of
// 10,000 files, through Update and the redrawn view with its listing.
func BenchmarkTabOn10kFiles(b *testing.B) {
	cfg, _ := testConfig(b)
	dir := b.TempDir()
	big := filepath.Join(dir, "big")
	os.Mkdir(big, 0o755)
	for i := range 10000 {
		os.WriteFile(filepath.Join(big, "file-"+strings.Repeat("0", 5-len(itoa(i)))+itoa(i)), nil, 0o644)
	}
	cfg.Completer = &complete.Completer{Dir: func() string { return dir }}
	m := New(cfg)
	for b.Loop() {
		mm := tea.Model(m)
		mm, _ = mm.Update(textKey("cat big/file-0"))
		mm, _ = mm.Update(tea.KeyPressMsg{Code: tea.KeyTab})
		if v := mm.View().Content; !strings.Contains(v, "more") {
			b.Fatal(v)
		}
	}
}
