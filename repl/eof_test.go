package repl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/agent"
)

// TestCtrlDWhileACommandRunsKeepsIt: Ctrl+D while a command runs neither
// ends the command nor the shell (issue 29, item 1): the command goes on
// to its end (its output printed, the file it makes made), a hint says it
// reads no input, and Ctrl+D at the empty prompt afterwards leaves.
func TestCtrlDWhileACommandRunsKeepsIt(t *testing.T) {
	sentinel := filepath.Join(t.TempDir(), "SENTINEL")
	tm, _ := start(t, 80, 20)
	enter(tm, "for i in 1 2 3; do echo step $i; sleep 0.2; done; touch "+sentinel)
	waitFor(t, tm, "Running for i in 1 2 3", "  step 1")
	press(tm, ctrlKey('d'))
	waitFor(t, tm, eofRunningMsg)
	press(tm, ctrlKey('d')) // again: still nothing ends
	waitLine(t, "step 3")
	if _, err := os.Stat(sentinel); err != nil {
		t.Fatalf("the command did not run to its end: %v", err)
	}
	select {
	case <-tm.done:
		t.Fatal("the shell left on Ctrl+D while a command ran")
	default:
	}
	for _, l := range []string{"step 1", "step 2"} {
		waitLine(t, l)
	}
	press(tm, ctrlKey('d')) // nothing runs: Ctrl+D leaves
	tm.WaitFinished(t)
	if strings.Contains(lastTranscript.String(), "interrupted") {
		t.Fatalf("the command was interrupted:\n%s", lastTranscript.String())
	}
}

// gatedAgent streams some text, then waits for its gate (and answers) or
// for its turn to be stopped (and is interrupted, as agent.Agent is).
type gatedAgent struct{ gate chan struct{} }

func (a *gatedAgent) Run(ctx context.Context, _ string, emit func(agent.Event)) (agent.Result, error) {
	emit(agent.TextDelta{Text: "Working on it"})
	select {
	case <-a.gate:
		emit(agent.TextDelta{Text: ", done"})
		emit(agent.TextDone{Text: "Working on it, done"})
		return agent.Result{Text: "Working on it, done", NumTurns: 1}, nil
	case <-ctx.Done():
		return agent.Result{NumTurns: 1}, agent.ErrInterrupted
	}
}

// TestCtrlDWhileTheAgentWorks: in agent mode one Ctrl+D while the agent
// works asks for a second (as Claude Code does) and the turn goes on; a
// second stops the turn, prints what it had said and the interruption, and
// leaves.
func TestCtrlDWhileTheAgentWorks(t *testing.T) {
	t.Run("once", func(t *testing.T) {
		ag := &gatedAgent{gate: make(chan struct{})}
		tm, _ := startWith(t, 80, 20, func(c *Config) { c.Agent = ag })
		enter(tm, "do the thing")
		waitFor(t, tm, "Working on it")
		press(tm, ctrlKey('d'))
		waitFor(t, tm, doubleCtrlDMsg)
		close(ag.gate)
		waitPrinted(t, "Working on it, done")
		select {
		case <-tm.done:
			t.Fatal("one Ctrl+D while the agent worked ended the shell")
		default:
		}
		press(tm, ctrlKey('d')) // at the empty prompt: leaves
		tm.WaitFinished(t)
	})
	t.Run("twice", func(t *testing.T) {
		ag := &gatedAgent{gate: make(chan struct{})}
		tm, _ := startWith(t, 80, 20, func(c *Config) { c.Agent = ag })
		enter(tm, "do the thing")
		waitFor(t, tm, "Working on it")
		press(tm, ctrlKey('d'))
		press(tm, ctrlKey('d'))
		tm.WaitFinished(t)
		waitPrinted(t, "Working on it\n", "Interrupted by Ctrl+D: the shell leaves")
	})
}

// TestEndOfInputKeys: what each Ctrl+D does, in order, to the pure model:
// at an idle prompt it leaves; while a command runs it never does; while
// the agent works the second leaves once the turn has ended, and any other
// key between the two forgets the first.
func TestEndOfInputKeys(t *testing.T) {
	left := tea.KeyPressMsg{Code: tea.KeyLeft}
	d := ctrlKey('d')
	for _, tc := range []struct {
		name    string
		running string // "", "command", "agent", "asking" (the agent asks a permission question)
		before  string // a hint showing before the keys
		keys    []tea.KeyPressMsg
		quits   bool
		leaving bool
		hint    string
	}{
		{name: "idle", keys: []tea.KeyPressMsg{d}, quits: true},
		{name: "command", running: "command", keys: []tea.KeyPressMsg{d}, hint: eofRunningMsg},
		{name: "command thrice", running: "command", keys: []tea.KeyPressMsg{d, d, d}, hint: eofRunningMsg},
		{name: "command, over another hint", running: "command", before: "history kept in memory only", keys: []tea.KeyPressMsg{d}, hint: eofRunningMsg},
		{name: "command, then a key", running: "command", keys: []tea.KeyPressMsg{d, left}},
		{name: "agent", running: "agent", keys: []tea.KeyPressMsg{d}, hint: doubleCtrlDMsg},
		{name: "agent twice", running: "agent", keys: []tea.KeyPressMsg{d, d}, leaving: true, hint: leavingMsg},
		{name: "agent, a key, again", running: "agent", keys: []tea.KeyPressMsg{d, left, d}, hint: doubleCtrlDMsg},
		{name: "agent, a search, again", running: "agent", keys: []tea.KeyPressMsg{d, ctrlKey('r'), {Code: tea.KeyEscape}, d}, hint: doubleCtrlDMsg},
		{name: "agent, Tab, again", running: "agent", keys: []tea.KeyPressMsg{d, {Code: tea.KeyTab}, d}, hint: doubleCtrlDMsg},
		{name: "agent thrice", running: "agent", keys: []tea.KeyPressMsg{d, d, d}, leaving: true, quits: true},
		{name: "agent asks, Ctrl+D", running: "asking", keys: []tea.KeyPressMsg{d}, hint: doubleCtrlDMsg},
		{name: "agent asks, Ctrl+D twice", running: "asking", keys: []tea.KeyPressMsg{d, d}, leaving: true, hint: leavingMsg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			m := New(cfg)
			cancelled := false
			switch tc.running {
			case "command":
				m.running = &run{id: 1, line: "sleep 9", cancel: func() { cancelled = true }}
			case "agent":
				m.running = &run{id: 1, line: "do it", cancel: func() { cancelled = true }, events: make(agentEvents), stream: []byte("Working on it")}
			case "asking":
				m.running = &run{id: 1, line: "do it", cancel: func() { cancelled = true }, events: make(agentEvents), asking: &asking{q: question("rm -rf x")}}
			}
			m.hint = tc.before
			var cmd tea.Cmd
			for _, k := range tc.keys {
				var next tea.Model
				next, cmd = m.Update(k)
				m = next.(*Model)
			}
			if m.quitting != tc.quits {
				t.Errorf("quitting %v, want %v", m.quitting, tc.quits)
			}
			if tc.quits && cmd == nil {
				t.Error("no command to quit")
			}
			if m.leaving != tc.leaving {
				t.Errorf("leaving %v, want %v", m.leaving, tc.leaving)
			}
			if tc.running == "command" && cancelled {
				t.Error("the command was stopped")
			}
			if tc.leaving && !cancelled {
				t.Error("the agent's turn was not stopped")
			}
			if !tc.quits && m.hint != tc.hint {
				t.Errorf("hint %q, want %q", m.hint, tc.hint)
			}
			if tc.quits && tc.running == "agent" {
				ops, _ := m.takeOutput()
				var printed []string
				for _, op := range ops {
					printed = append(printed, op.text)
				}
				if got := strings.Join(printed, "\n"); got != "Working on it\nInterrupted: the shell left before the agent's turn ended" {
					t.Errorf("printed on leaving: %q", got)
				}
			}
		})
	}
}

// TestAgentInterruptSaysWhatItDropped: Ctrl+C while the agent works drops
// the prompts typed ahead and says so under the interruption, as for a
// command (before, the note waited for the next command to end).
func TestAgentInterruptSaysWhatItDropped(t *testing.T) {
	ag := &gatedAgent{gate: make(chan struct{})}
	tm, _ := startWith(t, 80, 20, func(c *Config) { c.Agent = ag })
	enter(tm, "do the thing")
	waitFor(t, tm, "Working on it")
	enter(tm, "and then this")
	enter(tm, "and that")
	waitFor(t, tm, "✦ and that")
	press(tm, ctrlKey('c'))
	waitPrinted(t, "Interrupted", "Dropped 2 queued commands")
	finalView(t, tm)
}

// TestAKeyBetweenTwoCtrlCForgetsTheFirst: Ctrl+C, then a search or Tab,
// then Ctrl+C on the empty line does not leave: the second press asks
// again (before, a search or a completion between them kept the first).
func TestAKeyBetweenTwoCtrlCForgetsTheFirst(t *testing.T) {
	c := ctrlKey('c')
	for name, between := range map[string][]tea.KeyPressMsg{
		"search": {ctrlKey('r'), {Code: tea.KeyEscape}},
		"Tab":    {{Code: tea.KeyTab}},
	} {
		t.Run(name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			var m tea.Model = New(cfg)
			keys := append(append([]tea.KeyPressMsg{c}, between...), c)
			for _, k := range keys {
				m, _ = m.Update(k)
			}
			if got := m.(*Model); got.quitting || got.hint != doubleCtrlCMsg {
				t.Fatalf("quitting %v, hint %q", got.quitting, got.hint)
			}
		})
	}
}
