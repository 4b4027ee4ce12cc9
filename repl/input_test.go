package repl

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestWrappedRowsMatchesTextarea: the input's height is counted with the
// textarea's own word wrap, so its last row (the cursor's) is never cut.
func TestWrappedRowsMatchesTextarea(t *testing.T) {
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d of round 1","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	lines := []string{"", "echo hi", strings.Repeat("x", 200), "a " + strings.Repeat("long", 30) + " b",
		`TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}'`, "漢字 " + strings.Repeat("漢", 70), strings.Repeat("word ", 40)}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		var b strings.Builder
		for j := rng.Intn(300); j > 0; j-- {
			b.WriteByte(" ab"[rng.Intn(3)])
		}
		lines = append(lines, b.String())
	}
	for _, width := range []int{20, 57, 99} {
		in := newInput(lipgloss.NewStyle())
		in.SetWidth(width)
		for _, l := range lines {
			in.SetValue(l)
			if got, want := wrappedRows(l, in.Width()), in.LineInfo().Height; got != want {
				t.Fatalf("width %d: %d rows counted, textarea wraps %q into %d", in.Width(), got, l, want)
			}
		}
	}
}

// TestInputShowsNoEmptyRowsAfterAResize: a multi-line input taller than
// the rows it shows, scrolled to its cursor in a narrow window, keeps no
// empty "…" rows under its text when a wider window (or a deleted line)
// gives it fewer rows: the textarea kept its scroll offset (trial finding,
// multi-line input after a resize narrow→wide).
func TestInputShowsNoEmptyRowsAfterAResize(t *testing.T) {
	tests := []struct {
		name     string
		from, to int // window widths
		lines    int
		deleted  int // lines deleted at the end after the resize
	}{
		{"40 to 100", 40, 100, 9, 0},
		{"60 to 100", 60, 100, 9, 0},
		{"40 to 80, still scrolling", 40, 80, 14, 0},
		{"same width, lines deleted", 40, 40, 9, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			var m tea.Model = New(cfg)
			send := func(msg tea.Msg) { m, _ = m.Update(msg) }
			send(tea.WindowSizeMsg{Width: tc.from, Height: 30})
			for i := range tc.lines {
				if i > 0 {
					send(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
				}
				send(textKey(fmt.Sprintf("echo line %d is long enough to wrap at forty", i)))
			}
			send(tea.WindowSizeMsg{Width: tc.to, Height: 30})
			for range tc.deleted {
				send(tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}) // the line's text (Ctrl+U clears the whole entry)
				send(tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
				send(tea.KeyPressMsg{Code: tea.KeyBackspace})
			}
			rows := strings.Split(m.View().Content, "\n")
			last := fmt.Sprintf("echo line %d ", tc.lines-1-tc.deleted)
			if !strings.Contains(strings.Join(rows, "\n"), last) {
				t.Errorf("the cursor's line %q is not shown:\n%s", last, m.View().Content)
			}
			for _, r := range rows {
				if strings.TrimSpace(ansi.Strip(r)) == "…" {
					t.Fatalf("an empty row in the input:\n%s", m.View().Content)
				}
			}
		})
	}
}

// TestInputSaysHowManyLinesAreHidden: an input of more rows than it shows
// (12) says how many of its lines are out of sight, above ("↑ 8 more
// lines", the cursor at the end) or below (the cursor moved to the top);
// one that fits says nothing (trial finding: the input hid its top
// without saying so).
func TestInputSaysHowManyLinesAreHidden(t *testing.T) {
	tests := []struct {
		name      string
		width     int
		lines     int
		up        int // Up presses after typing
		above     string
		below     string
		textShown int // rows of the text shown
	}{
		{"fits", 80, 12, 0, "", "", 12},
		{"one hidden", 80, 13, 0, "↑ 1 more line", "", 12},
		{"eight hidden above", 80, 20, 0, "↑ 8 more lines", "", 12},
		{"at the top", 80, 20, 19, "", "↓ 8 more lines", 12},
		{"in the middle", 80, 20, 14, "↑ 5 more lines", "↓ 3 more lines", 12},
		{"wrapped lines", 30, 10, 0, "↑ 4 more lines", "", 12}, // 2 rows a line: 6 lines shown
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := testConfig(t)
			var m tea.Model = New(cfg)
			send := func(msg tea.Msg) { m, _ = m.Update(msg) }
			send(tea.WindowSizeMsg{Width: tc.width, Height: 40})
			for i := range tc.lines {
				if i > 0 {
					send(tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt})
				}
				text := fmt.Sprintf("echo %d", i)
				if tc.width < 40 {
					text += " which wraps here"
				}
				send(textKey(text))
			}
			for range tc.up {
				send(tea.KeyPressMsg{Code: tea.KeyUp})
			}
			rows := strings.Split(ansi.Strip(m.View().Content), "\n")
			first, last := strings.TrimSpace(rows[0]), strings.TrimSpace(rows[len(rows)-1])
			wantRows := tc.textShown
			if tc.above != "" {
				wantRows++
				if first != tc.above {
					t.Errorf("first row %q, want %q", first, tc.above)
				}
			} else if strings.Contains(first, "more line") {
				t.Errorf("first row %q, want the text", first)
			}
			if tc.below != "" {
				wantRows++
				if last != tc.below {
					t.Errorf("last row %q, want %q", last, tc.below)
				}
			} else if strings.Contains(last, "more line") {
				t.Errorf("last row %q, want the text", last)
			}
			if len(rows) != wantRows {
				t.Errorf("%d rows, want %d:\n%s", len(rows), wantRows, strings.Join(rows, "\n"))
			}
		})
	}
}
