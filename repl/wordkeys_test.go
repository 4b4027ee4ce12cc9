package repl

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
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
		msg  tea.KeyMsg
	}{
		{"Alt+Left", tea.KeyMsg{Type: tea.KeyLeft, Alt: true}},
		{"Alt+Right", tea.KeyMsg{Type: tea.KeyRight, Alt: true}},
		{"Alt+b", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}},
		{"Alt+f", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f"), Alt: true}},
		{"Alt+d", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d"), Alt: true}},
		{"Alt+c", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c"), Alt: true}},
		{"Alt+l", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("l"), Alt: true}},
		{"Alt+u", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("u"), Alt: true}},
		{"Ctrl+Left", tea.KeyMsg{Type: tea.KeyCtrlLeft}},
		{"Ctrl+Right", tea.KeyMsg{Type: tea.KeyCtrlRight}},
		{"Ctrl+W", tea.KeyMsg{Type: tea.KeyCtrlW}},
		{"Alt+Backspace", tea.KeyMsg{Type: tea.KeyBackspace, Alt: true}},
		{"Alt+Delete", tea.KeyMsg{Type: tea.KeyDelete, Alt: true}},
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
		for _, k := range []tea.KeyMsg{{Type: tea.KeyLeft, Alt: true}, {Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}, {Type: tea.KeyCtrlLeft}} {
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
func pressReturns(t *testing.T, m Model, msg tea.KeyMsg, name string) Model {
	t.Helper()
	done := make(chan Model, 1)
	go func() {
		next, _ := m.Update(msg)
		done <- next.(Model)
	}()
	select {
	case next := <-done:
		return next
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the key never returned", name)
		return m
	}
}
