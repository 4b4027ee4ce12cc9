package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/repl/complete"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestTabTemplateShowsFromItsFirstRow: `TodoWrite ` and Tab on an empty
// list puts the one-item template in the input, shown whole from its first
// row, with no empty rows under it (trial finding at 80×24: the template
// was drawn scrolled by two rows, its first two rows lost, two empty "…"
// rows under it, and no "↑" row saying so).
func TestTabTemplateShowsFromItsFirstRow(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			cfg, _ := testConfig(t)
			cfg.Completer = &complete.Completer{
				Commands: []string{"TodoWrite", "TodoRead"},
				Dir:      func() string { return t.TempDir() },
				Arg: func(string) (string, string, bool) {
					snap, _ := cfg.Plan.Last()
					return todo.EditableArg(snap.Items), "the current list", true
				},
			}
			var m tea.Model = New(cfg)
			m, _ = m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			for _, r := range "TodoWrite " {
				m, _ = m.Update(textKey(string(r)))
				m.View() // the painter draws after each key
			}
			m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
			v := m.View()
			rows := strings.Split(ansi.Strip(v.Content), "\n")
			for i := range rows {
				rows[i] = strings.TrimRight(rows[i], " ")
			}
			want := strings.Split(todo.EditableArg(nil), "\n")
			if len(rows) != len(want) || !strings.HasSuffix(rows[0], "❯ TodoWrite "+want[0]) {
				t.Fatalf("the input's rows, want %d from `TodoWrite %s`:\n%s", len(want), want[0], strings.Join(rows, "\n"))
			}
			for i, r := range rows[1:] {
				if !strings.HasSuffix(r, want[i+1]) {
					t.Fatalf("row %d is %q, want %q:\n%s", i+1, r, want[i+1], strings.Join(rows, "\n"))
				}
			}
			if v.Cursor == nil || !strings.Contains(want[v.Cursor.Y], `"content": "`) {
				t.Fatalf("cursor %+v, want it on the content row", v.Cursor)
			}
		})
	}
}
