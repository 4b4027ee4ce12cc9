package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestInputCountsHiddenRows: a long line wrapped over many rows, partly
// shown, is counted in rows, the rows out of sight (trial finding: a
// pasted 5,000-character line said "↑ 1 more line" with ~60 rows hidden).
func TestInputCountsHiddenRows(t *testing.T) {
	long := "echo " + strings.Repeat("word ", 1000) // 5,005 characters
	for _, w := range []int{100, 80, 60} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			cfg, _ := testConfig(t)
			var m tea.Model = New(cfg)
			m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
			m, _ = m.Update(tea.PasteMsg{Content: long})
			mm := m.(*Model)
			hidden := mm.inputRows - maxInputRows
			if hidden < 40 {
				t.Fatalf("%d rows hidden: the line should take many rows", hidden)
			}
			rows := strings.Split(ansi.Strip(m.View().Content), "\n")
			if got, want := strings.TrimSpace(rows[0]), fmt.Sprintf("↑ %d more rows", hidden); got != want {
				t.Fatalf("first row %q, want %q", got, want)
			}
			m, _ = m.Update(tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}) // to the start
			rows = strings.Split(ansi.Strip(m.View().Content), "\n")
			if got, want := strings.TrimSpace(rows[len(rows)-1]), fmt.Sprintf("↓ %d more rows", hidden); got != want {
				t.Fatalf("last row %q, want %q", got, want)
			}
		})
	}
}
