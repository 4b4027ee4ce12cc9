package cmd

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestTypeaheadKeys: keys typed before the shell started are the keys they
// were, escape sequences (arrows, Home, End, Alt+x, a paste) included; an
// unknown or cut sequence is dropped whole and what follows it is kept.
func TestTypeaheadKeys(t *testing.T) {
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	key := func(k tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: k} }
	for _, tc := range []struct {
		name string
		in   string
		want []tea.KeyMsg
	}{
		{"text and Enter", "ab\r", []tea.KeyMsg{runes("a"), runes("b"), key(tea.KeyEnter)}},
		{"LF is Enter", "a\n", []tea.KeyMsg{runes("a"), key(tea.KeyEnter)}},
		{"arrows", "\x1b[A\x1b[B\x1b[C\x1b[D", []tea.KeyMsg{key(tea.KeyUp), key(tea.KeyDown), key(tea.KeyRight), key(tea.KeyLeft)}},
		{"SS3 arrows", "\x1bOD\x1bOC", []tea.KeyMsg{key(tea.KeyLeft), key(tea.KeyRight)}},
		{"Home and End", "\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF", []tea.KeyMsg{key(tea.KeyHome), key(tea.KeyEnd), key(tea.KeyHome), key(tea.KeyEnd), key(tea.KeyHome), key(tea.KeyEnd)}},
		{"Delete and Ctrl+Left", "\x1b[3~\x1b[1;5D", []tea.KeyMsg{key(tea.KeyDelete), key(tea.KeyCtrlLeft)}},
		{"text around an arrow", "ab\x1b[Dc\r", []tea.KeyMsg{runes("a"), runes("b"), key(tea.KeyLeft), runes("c"), key(tea.KeyEnter)}},
		{"Alt+b", "\x1bbx", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}, runes("x")}},
		{"unknown sequence dropped", "\x1b[15~a", []tea.KeyMsg{runes("a")}},
		{"cut sequence dropped", "a\x1b[1;", []tea.KeyMsg{runes("a")}},
		{"lone Escape dropped", "a\x1b", []tea.KeyMsg{runes("a")}},
		{"paste", "\x1b[200~x\ry\x1b[201~z", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("x\ry"), Paste: true}, runes("z")}},
		{"Ctrl keys and Backspace", "\x01\x7f\t", []tea.KeyMsg{key(tea.KeyCtrlA), key(tea.KeyBackspace), key(tea.KeyTab)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := typeaheadKeys([]byte(tc.in))
			if len(got) != len(tc.want) {
				t.Fatalf("typeaheadKeys(%q) = %v, want %v", tc.in, got, tc.want)
			}
			for i := range got {
				if got[i].Type != tc.want[i].Type || string(got[i].Runes) != string(tc.want[i].Runes) || got[i].Alt != tc.want[i].Alt || got[i].Paste != tc.want[i].Paste {
					t.Fatalf("typeaheadKeys(%q) = %v, want %v", tc.in, got, tc.want)
				}
			}
		})
	}
}
