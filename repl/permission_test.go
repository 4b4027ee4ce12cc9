package repl

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/tools"
)

// askingAgent asks for permission for one Bash call per prompt, as
// agent.Agent does (PermissionAsked, Ask, PermissionAnswered), and reports
// the answer as its text.
type askingAgent struct {
	perm    *Permissions
	answers chan agent.Answer
	command string // the command asked about
}

// question is what the agent asks about command when no rule allows it.
func question(command string) agent.Question {
	in, _ := json.Marshal(map[string]string{"command": command})
	use := tools.ToolUse{Type: "tool_use", ID: "toolu_p", Name: "Bash", Input: in}
	d := permission.New(permission.Config{Dir: "/nonexistent"}).Check("Bash", in)
	return agent.Question{Use: use, Rules: d.Always, Risky: d.Risky, Why: d.Why}
}

func (a *askingAgent) Run(ctx context.Context, prompt string, emit func(agent.Event)) (agent.Result, error) {
	q := question(a.command)
	use := q.Use
	emit(agent.ToolCall{Use: use})
	emit(agent.PermissionAsked{Question: q})
	ans := a.perm.Ask(ctx, q)
	emit(agent.PermissionAnswered{Answer: ans})
	a.answers <- ans
	if ctx.Err() != nil {
		return agent.Result{}, agent.ErrInterrupted
	}
	text := fmt.Sprintf("answer %d %q", ans.Kind, ans.Reason)
	emit(agent.TextDone{Text: text})
	return agent.Result{Text: text}, nil
}

// TestPermissionPrompt: a call that needs permission stops in the live
// area with the question, naming every part of the compound command no
// rule allows; y, a and n (with a reason) answer it; Ctrl+C while asked
// interrupts the turn (a refusal); the spinner line stays.
func TestPermissionPrompt(t *testing.T) {
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	ag := &askingAgent{perm: NewPermissions(), answers: make(chan agent.Answer, 1), command: "cat hello.py && head notes.txt"}
	cfg.Agent, cfg.Permissions = ag, ag.perm
	tm := runShell(t, cfg, 160, 20)

	tests := []struct {
		keys string
		want agent.Answer
	}{
		{"y", agent.Answer{Kind: agent.AllowOnce}},
		{"a", agent.Answer{Kind: agent.AllowAlways}},
		{"n", agent.Answer{Kind: agent.Refuse, Reason: "keep my notes"}},
	}
	// The terminal keeps everything drawn: wait for the question to be
	// drawn anew, not for the one before it.
	const question = `Allow Bash(cat hello.py && head notes.txt) — "cat hello.py" and "head notes.txt" are not allowed?`
	asked := func(what string, before int) {
		t.Helper()
		testwait.For(t, 10*time.Second, what, func() bool { return strings.Count(tm.out.String(), what) > before })
	}
	answer := func() agent.Answer {
		t.Helper()
		select {
		case got := <-ag.answers:
			return got
		case <-time.After(10 * time.Second):
			t.Fatal("no answer reached the agent")
			return agent.Answer{}
		}
	}
	for i, tt := range tests {
		before := strings.Count(tm.out.String(), question)
		enter(tm, fmt.Sprintf("tidy up %d", i))
		asked(question, before)
		waitFor(t, tm, "y yes · a always (this session, cat:*, head:*) · n no, and tell Claude why", "Ctrl+C to interrupt")
		tm.Send(textKey("x")) // not an answer: ignored
		tm.Send(textKey(tt.keys))
		if tt.want.Reason != "" {
			asked("Tell Claude why", 0)
			tm.Send(textKey(tt.want.Reason))
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		}
		if got := answer(); got != tt.want {
			t.Fatalf("%q: answer %+v, want %+v", tt.keys, got, tt.want)
		}
		waitLine(t, fmt.Sprintf("answer %d %q", tt.want.Kind, tt.want.Reason))
	}
	// Ctrl+C while asked.
	before := strings.Count(tm.out.String(), question)
	enter(tm, "tidy up again")
	asked(question, before)
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if got := answer(); got.Kind != agent.Refuse {
		t.Fatalf("after Ctrl+C: %+v", got)
	}
	waitFor(t, tm, "Interrupted: the next prompt continues the conversation")
}

// costAgent answers with one turn's usage.
type costAgent struct{}

func (costAgent) Run(_ context.Context, _ string, emit func(agent.Event)) (agent.Result, error) {
	u := agent.Usage{InputTokens: 300, CacheReadInputTokens: 12000, OutputTokens: 450}
	emit(agent.TurnDone{Round: 1, Usage: u, Session: u, Model: "claude-sonnet-4-5", Context: 0.0615})
	emit(agent.TextDone{Text: "ok"})
	return agent.Result{Text: "ok", Usage: u}, nil
}

// TestCostLine: after each turn a dim line with the tokens and the cost;
// /cost gives the session's.
func TestCostLine(t *testing.T) {
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	cfg.Agent = costAgent{}
	tm := runShell(t, cfg, 100, 20)
	enter(tm, "/cost")
	waitLine(t, "Nothing spent yet: no request has been answered in this session")
	enter(tm, "hello")
	waitLine(t, "↑ 12.3k in (12.0k cached) · ↓ 450 out · $0.011 · ctx 6%")
	enter(tm, "/cost")
	waitLine(t, "Session so far: ↑ 12.3k in (12.0k cached) · ↓ 450 out · $0.011")
}

// compactAgent compacts on /compact.
type compactAgent struct{ costAgent }

func (compactAgent) Compact(_ context.Context, emit func(agent.Event)) error {
	emit(agent.Compacted{Before: 12, After: 2})
	return nil
}

func TestCompactCommand(t *testing.T) {
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	cfg.Agent = compactAgent{}
	tm := runShell(t, cfg, 100, 20)
	enter(tm, "/compact")
	waitLine(t, "Compacted the conversation: 12 messages → 2 (a summary, the plan verbatim, the last turn)")
}

// TestAgentPromptShowsContext: in agent mode the prompt line says how full
// the context window is once a request was answered ("ctx 6% ✦"); after a
// compaction it says nothing until the next request.
func TestAgentPromptShowsContext(t *testing.T) {
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	cfg.Agent = compactAgent{}
	tm := runShell(t, cfg, 100, 20)
	echoed := func(line string) {
		t.Helper()
		testwait.For(t, 10*time.Second, fmt.Sprintf("the echo %q", line),
			func() bool { return strings.Contains("\n"+lastTranscript.String(), "\n"+line+"\n") }, lastTranscript.String)
	}
	enter(tm, "first")
	echoed("project ✦ first") // no share before any request
	waitLine(t, "↑ 12.3k in (12.0k cached) · ↓ 450 out · $0.011 · ctx 6%")
	waitFor(t, tm, "project ctx 6% ✦")
	enter(tm, "/compact")
	echoed("project ctx 6% ✦ /compact")
	waitLine(t, "Compacted the conversation: 12 messages → 2 (a summary, the plan verbatim, the last turn)")
	enter(tm, "second")
	echoed("project ✦ second")
}

func TestPromptParts(t *testing.T) {
	tests := []struct {
		name   string
		agent  bool
		status int
		ctx    string
		want   string
	}{
		{"shell", false, 0, "", "work ❯ "},
		{"shell ignores ctx", false, 0, "ctx 41%", "work ❯ "},
		{"agent before a request", true, 0, "", "work ✦ "},
		{"agent", true, 0, "ctx 41%", "work ctx 41% ✦ "},
		{"agent after a failure", true, 1, "ctx 41%", "work ✗1 ctx 41% ✦ "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Model{dir: "/tmp/work", prompt: promptState{status: tt.status, ctx: tt.ctx}}
			if tt.agent {
				m.cfg.Agent = costAgent{}
			}
			if got := m.promptParts(); got != tt.want {
				t.Fatalf("prompt %q, want %q", got, tt.want)
			}
		})
	}
	if got := ctxText(0.4149); got != "ctx 41%" {
		t.Fatalf("ctxText %q", got)
	}
}

// TestPermissionQuestionWraps: the question wraps to the terminal's width
// less its margin — no row wider, no word lost — at the widths people use;
// the answers break between the choices.
func TestPermissionQuestionWraps(t *testing.T) {
	long := "rm -rf ~/something/with/a/rather/long/path " + strings.Repeat("x", 70)
	tests := []struct {
		command string
		width   int
		rows    int  // rows of the question, 0 to leave uncounted
		cut     bool // the command takes more than maxQuestionRows rows: its start shows
	}{
		{"rm -f notes.txt", 100, 2, false},
		{"rm -f notes.txt", 80, 2, false},
		{"rm -f notes.txt", 60, 3, false}, // the answers take two rows
		{"rm -f notes.txt", 40, 0, false},
		{long, 80, 0, false},
		{long, 60, 0, false},
		{long, 30, 0, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d %.10s", tt.width, tt.command), func(t *testing.T) {
			cfg, _ := testConfig(t)
			cfg.Agent = costAgent{}
			m := New(cfg)
			m.width = tt.width
			q := question(tt.command)
			m.running = &run{asking: &asking{q: q}}
			lines := m.permissionLines()
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > tt.width-1 {
					t.Errorf("a row %d wide in %d columns: %q", w, tt.width, l)
				}
			}
			if tt.rows != 0 && len(lines) != tt.rows {
				t.Errorf("%d rows, want %d: %q", len(lines), tt.rows, lines)
			}
			squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
			got := squeeze(strings.Join(lines, "\n"))
			question := "Allow Bash(" + tt.command + ")?"
			if len(answerParts(q)) != 3 {
				t.Fatalf("answers %q", answerParts(q))
			}
			if tt.cut {
				question = "Allow Bash(rm -rf ~/something"
				if !strings.HasSuffix(lines[maxQuestionRows-1], "…") {
					t.Errorf("the question's last row does not say it is cut: %q", lines)
				}
			}
			for _, want := range append([]string{question}, answerParts(q)...) {
				if !strings.Contains(got, squeeze(want)) {
					t.Errorf("%q is not in %q", want, lines)
				}
			}
			for i, l := range lines[1:] {
				if !strings.HasPrefix(l, "  ") {
					t.Errorf("row %d is not indented: %q", i+1, l)
				}
			}
			if len(lines) > 1 && strings.Contains(lines[len(lines)-1], "·") && strings.HasPrefix(strings.TrimLeft(lines[len(lines)-1], " "), "·") {
				t.Errorf("an answer row starts with its separator: %q", lines)
			}
		})
	}
}

// TestPermissionQuestionNamesEveryPart: the question names every part of
// a compound command that no rule allows, and "always" every rule it adds;
// a risky part (rm, sudo, > file) gets no rule and is said to ask each
// time; a call whose only unallowed parts are risky offers no "always" at
// all, and the key a does nothing.
func TestPermissionQuestionNamesEveryPart(t *testing.T) {
	tests := []struct {
		command string
		want    []string // the rows at 200 columns
	}{
		{"cat hello.py && head notes.txt", []string{
			`Allow Bash(cat hello.py && head notes.txt) — "cat hello.py" and "head notes.txt" are not allowed?`,
			`  y yes · a always (this session, cat:*, head:*) · n no, and tell Claude why`}},
		{"cat hello.py && rm -f notes.txt", []string{
			`Allow Bash(cat hello.py && rm -f notes.txt) — "cat hello.py" and "rm -f notes.txt" are not allowed?`,
			`  y yes · a always (this session, cat:*; "rm -f notes.txt" asks each time) · n no, and tell Claude why`}},
		{"rm -f notes.txt", []string{
			`Allow Bash(rm -f notes.txt)?`,
			`  y yes · n no, and tell Claude why · (no "always": it would allow too much)`}},
		{"sudo make install; echo ok > log", []string{
			`Allow Bash(sudo make install; echo ok > log) — "sudo make install" and "echo ok > log" are not allowed?`,
			`  y yes · a always (this session, echo:*; "sudo make install" asks each time) · n no, and tell Claude why`}},
		{"sudo make install; echo ok > /etc/motd", []string{
			`Allow Bash(sudo make install; echo ok > /etc/motd) — "sudo make install" and "echo ok > /etc/motd" are not allowed: writes outside the working directory: /etc/motd?`,
			`  y yes · n no, and tell Claude why · (no "always": it would allow too much)`}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			cfg, _ := testConfig(t)
			cfg.Agent = costAgent{}
			m := New(cfg)
			m.width = 200
			m.running = &run{asking: &asking{q: question(tt.command)}}
			var got []string
			for _, l := range m.permissionLines() {
				got = append(got, ansi.Strip(l))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("question\n%q\nwant\n%q", got, tt.want)
			}
			// a: an answer only when offered.
			m.cfg.Permissions = nil
			rules := m.running.asking.q.Rules
			next, _ := m.permissionKey(textKey("a"))
			if answered := next.(*Model).running.asking == nil; answered != (len(rules) > 0) {
				t.Fatalf("a answered %v with rules %v", answered, rules)
			}
		})
	}
}

func TestWrapRows(t *testing.T) {
	tests := []struct {
		s       string
		width   int
		maxRows int
		want    []string
	}{
		{"short", 20, 0, []string{"short"}},
		{"one two three four five", 12, 0, []string{"one two", "  three four", "  five"}},
		{"  indented text here", 12, 0, []string{"  indented", "  text here"}},
		{strings.Repeat("a", 25), 10, 0, []string{"aaaaaaaaaa", "  aaaaaaaa", "  aaaaaaa"}},
		{"a b c d e f g h i j k l m n o p", 10, 2, []string{"a b c d e", "  f g h i…"}},
		{"界界界界界界", 11, 0, []string{"界界界界界", "  界"}},
		{"no room to wrap in", 5, 0, []string{"no room to wrap in"}},
	}
	for _, tt := range tests {
		if got := wrapRows(tt.s, tt.width, tt.maxRows); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("wrapRows(%q, %d, %d) = %q, want %q", tt.s, tt.width, tt.maxRows, got, tt.want)
		}
	}
}
