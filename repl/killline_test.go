package repl

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	histfile "github.com/todo-shell/todo-shell/repl/history"
)

// TestCtrlUClearsAnEntryOfSeveralLines: Ctrl+U on an entry of several
// lines clears it whole, wherever the cursor is (issue 29, item 5: on a
// recalled entry, left on its first row, it cleared that row only, and
// Enter ran the rest); on one line it clears back to the start, as
// readline does.
func TestCtrlUClearsAnEntryOfSeveralLines(t *testing.T) {
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	left := tea.KeyPressMsg{Code: tea.KeyLeft}
	newline := tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	for _, tc := range []struct {
		name string
		keys []tea.KeyPressMsg
		want string
	}{
		{"recalled", []tea.KeyPressMsg{up}, ""},
		{"typed, on its last row", []tea.KeyPressMsg{textKey("echo a"), newline, textKey("echo b")}, ""},
		{"typed, on its first row", []tea.KeyPressMsg{textKey("echo a"), newline, textKey("echo b"), up}, ""},
		{"pasted", nil, ""},
		{"one line", []tea.KeyPressMsg{textKey("echo abc"), left, left}, "bc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			h, _ := histfile.Open("")
			h.Add("echo one\necho two\necho three")
			cfg.History = h
			var m tea.Model = New(cfg)
			m, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
			if tc.keys == nil {
				m, _ = m.Update(tea.PasteMsg{Content: "echo one\necho two"})
			}
			for _, k := range tc.keys {
				m, _ = m.Update(k)
			}
			if before := m.(*Model); before.input.LineCount() < 2 && tc.want == "" {
				t.Fatalf("the entry has one line: %q", before.text())
			}
			m, _ = m.Update(ctrlKey('u'))
			if got := m.(*Model).text(); got != tc.want {
				t.Fatalf("after Ctrl+U the input holds %q, want %q", got, tc.want)
			}
		})
	}
}
