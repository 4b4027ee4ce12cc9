package repl

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestWordKeysReturn presses every word key (Alt+Left/Right, Alt+b/f/d,
// Ctrl+Left/Right, Ctrl+W, Alt+Backspace, Alt+Delete, Alt+c/l/u) on empty,
// blank, one-word and multi-line inputs with the cursor at the start, in
// the middle and at the end: each returns (a watchdog fails the test if
// one spins; trial finding: Alt+Left on an empty or spaces-only line froze
// the shell, the textarea's word-left looking for a word for ever), and
// leaves the cursor inside the text.
func TestWordKeysReturn(t *testing.T) {
	keys := []struct {
		name string
		msg  tea.KeyPressMsg
	}{
		{"Alt+Left", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt}},
		{"Alt+Right", tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModAlt}},
		{"Alt+b", tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}},
		{"Alt+f", tea.KeyPressMsg{Code: 'f', Mod: tea.ModAlt}},
		{"Alt+d", tea.KeyPressMsg{Code: 'd', Mod: tea.ModAlt}},
		{"Alt+c", tea.KeyPressMsg{Code: 'c', Mod: tea.ModAlt}},
		{"Alt+l", tea.KeyPressMsg{Code: 'l', Mod: tea.ModAlt}},
		{"Alt+u", tea.KeyPressMsg{Code: 'u', Mod: tea.ModAlt}},
		{"Ctrl+Left", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModCtrl}},
		{"Ctrl+Right", tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModCtrl}},
		{"Ctrl+W", tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}},
		{"Alt+Backspace", tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}},
		{"Alt+Delete", tea.KeyPressMsg{Code: tea.KeyDelete, Mod: tea.ModAlt}},
	}
	inputs := []string{"", " ", "   ", "ls", "  ls", "ls  ", "echo one two", "日本 語 ",
		"one\ntwo", "  \n  ", "\n\n", "  \n  x", "x\n   ", "\t"}
	cfg, _ := testConfig(t)
	for _, in := range inputs {
		offsets := []int{0, len(in) / 2, len(in)}
		for _, at := range offsets {
			for _, k := range keys {
				name := fmt.Sprintf("%q at %d %s", in, at, k.name)
				m := New(cfg)
				m.width, m.height = 60, 20
				m.setInputCursor(in, at)
				next := pressReturns(t, m, k.msg, name)
				if c, v := next.inputCursor(), next.text(); c < 0 || c > len(v) {
					t.Errorf("%s: cursor %d outside %q", name, c, v)
				}
			}
		}
	}
}

// TestWordLeftOverBlanks: Alt+Left (and Alt+b, Ctrl+Left) with only blanks
// before the cursor goes to the start of the input, as readline does.
func TestWordLeftOverBlanks(t *testing.T) {
	tests := []struct {
		in   string
		at   int
		want int
	}{
		{"   ", 3, 0},
		{"  ls", 2, 0},
		{"  \n  x", 5, 0},
		{"  ls", 4, 2},
		{"a  ", 3, 0},
	}
	cfg, _ := testConfig(t)
	for _, tc := range tests {
		for _, k := range []tea.KeyPressMsg{{Code: tea.KeyLeft, Mod: tea.ModAlt}, {Code: 'b', Mod: tea.ModAlt}, {Code: tea.KeyLeft, Mod: tea.ModCtrl}} {
			m := New(cfg)
			m.width, m.height = 60, 20
			m.setInputCursor(tc.in, tc.at)
			next := pressReturns(t, m, k, k.String())
			if got := next.inputCursor(); got != tc.want || next.text() != tc.in {
				t.Errorf("%q at %d, %s: cursor %d in %q, want %d", tc.in, tc.at, k, got, next.text(), tc.want)
			}
		}
	}
}

// pressReturns sends msg to m and fails the test if Update does not return
// (a watchdog against an endless loop, not a timing).
func pressReturns(t *testing.T, m *Model, msg tea.KeyPressMsg, name string) *Model {
	t.Helper()
	done := make(chan *Model, 1)
	go func() {
		next, _ := m.Update(msg)
		done <- next.(*Model)
	}()
	select {
	case next := <-done:
		return next
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the key never returned", name)
		return m
	}
}
