package repl

import (
	"fmt"
	"strings"
	"testing"
)

// TestTmuxTallPanelCollapses: 50 todos in a 100×20 terminal. The panel
// collapses so the live area keeps to 18 rows with its title and the item
// in progress on screen, and after three commands the scrollback and the
// window hold exactly one panel title (issue 8, item 4).
func TestTmuxTallPanelCollapses(t *testing.T) {
	tt := startTmux(t, 100, 20)
	tt.command(todoWrite(12, 37), "Todo list updated: 12 completed, 1 in_progress, 37 pending")
	for i := 1; i <= 3; i++ {
		tt.command(fmt.Sprintf("echo mark-%d", i), fmt.Sprintf("mark-%d", i))
	}
	all, scr := tt.all(), tt.screen()
	if n := count(all, "Tasks 12/50"); n != 1 {
		t.Fatalf("%d panel titles in the scrollback and window, want 1:\n%s", n, all)
	}
	for _, want := range []string{"Tasks 12/50", "● Working on the current step", "completed   ", "more pending", "mark-3"} {
		if !strings.Contains(scr, want) {
			t.Errorf("%q is not on the screen:\n%s", want, scr)
		}
	}
	lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	top := -1
	for i, l := range lines {
		if strings.Contains(l, "Tasks 12/50") {
			top = i
		}
	}
	if live := len(lines) - top; live > 18 {
		t.Errorf("the live area takes %d rows of 20:\n%s", live, scr)
	}
}

// TestTmuxWideGraphemesLeaveNoDebris: items whose width the terminal and
// the width library disagree on (an emoji with a skin tone, a Devanagari
// cluster) are clipped, not wrapped: five redraws leave no stale rows
// (issue 8, item 5).
func TestTmuxWideGraphemesLeaveNoDebris(t *testing.T) {
	tt := startTmux(t, 100, 24)
	long := strings.Repeat("wide ", 17)
	tt.command(todoWrite(1, 2, long+"ok 👍🏽👍🏽👍🏽 end", long+"क्षि क्षि क्षि क्षि end"), "Todo list updated: 1 completed, 1 in_progress, 4 pending")
	for i := 1; i <= 5; i++ {
		tt.command(fmt.Sprintf("echo redraw-%d", i), fmt.Sprintf("redraw-%d", i))
	}
	all := tt.all()
	if n := count(all, "Tasks 1/6"); n != 1 {
		t.Errorf("%d panel titles, want 1:\n%s", n, all)
	}
	for _, row := range []string{"│ ○ wide", "│ ● Working", "╰─"} {
		if n := count(all, row); n != map[string]int{"│ ○ wide": 2, "│ ● Working": 1, "╰─": 1}[row] {
			t.Errorf("%d rows with %q:\n%s", n, row, all)
		}
	}
	for _, l := range strings.Split(all, "\n") {
		if strings.HasPrefix(l, "end") || strings.HasPrefix(strings.TrimSpace(l), "│") && !strings.HasPrefix(l, "│") {
			t.Errorf("a wrapped or stale row %q:\n%s", l, all)
		}
	}
}
