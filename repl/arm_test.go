package repl

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestFirstPressExpires: a first Ctrl+C on an empty line, and a first
// Ctrl+D while the agent works, are forgotten with their hint when their
// tick (armTimeout) arrives, so a press long after is a first press again
// (trial finding: a Ctrl+C six seconds later still left the shell). A
// tick of an earlier press leaves a later one armed. The expiry message is
// delivered directly: no clock, no sleep.
func TestFirstPressExpires(t *testing.T) {
	tests := []struct {
		name  string
		key   tea.KeyPressMsg
		hint  string
		agent bool
	}{
		{"Ctrl+C on an empty line", ctrlKey('c'), doubleCtrlCMsg, false},
		{"Ctrl+D while the agent works", ctrlKey('d'), doubleCtrlDMsg, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			if tc.agent {
				cfg.Agent = &gatedAgent{gate: make(chan struct{})}
			}
			m := New(cfg)
			if tc.agent {
				m.running = &run{id: 1, line: "do the thing", events: make(agentEvents), cancel: func() {}}
			}
			press := func(msg tea.Msg) tea.Cmd {
				t.Helper()
				next, cmd := m.Update(msg)
				m = next.(*Model)
				return cmd
			}
			if cmd := press(tc.key); cmd == nil || m.hint != tc.hint {
				t.Fatalf("first press: hint %q, tick %v", m.hint, cmd != nil)
			}
			first := armExpiredMsg{m.arms}
			press(first)
			if m.hint != "" || m.armed || m.eofArmed {
				t.Fatalf("after the tick: hint %q, armed %v %v", m.hint, m.armed, m.eofArmed)
			}
			press(tc.key) // a first press again, not the second
			if m.quitting || m.leaving || m.hint != tc.hint {
				t.Fatalf("a press after the tick: quitting %v, leaving %v, hint %q", m.quitting, m.leaving, m.hint)
			}
			press(first) // the earlier press's tick: this one stays armed
			if m.hint != tc.hint {
				t.Fatalf("an earlier tick disarmed the later press: hint %q", m.hint)
			}
			press(tc.key)
			if !m.quitting && !m.leaving {
				t.Fatalf("the second press in time did not leave: hint %q", m.hint)
			}
		})
	}
}
