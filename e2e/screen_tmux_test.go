package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestTmuxTallPanelCollapses: 50 todos in a 100×20 terminal. The panel
// collapses so the live area keeps to 18 rows with its title and the item
// in progress on screen, and after three commands the scrollback and the
// window hold exactly one panel title (issue 8, item 4).
func TestTmuxTallPanelCollapses(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestTmuxCtrlLClearsOnce: Ctrl+L clears the window once (tmux moves what
// was on it into the scrollback); the keys typed after it redraw the live
// area in place instead of clearing again (issue 8, item 6).
func TestTmuxCtrlLClearsOnce(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 100, 20)
	tt.command(todoWrite(1, 2), "Todo list updated: 1 completed, 1 in_progress, 2 pending")
	// The panel comes in a frame of its own after the result: Ctrl+L
	// once it is on the screen, so that the clear moves it away.
	tt.waitScreen("the panel", func(s string) bool { return strings.Contains(s, "Tasks 1/4") })
	tt.run("send-keys", "-t", "t", "C-l")
	tt.waitUntil("the panel at the top after Ctrl+L", func() bool {
		return strings.HasPrefix(tt.screen(), "╭─ Tasks 1/4")
	})
	for _, k := range []string{"a", "b", "c"} {
		tt.run("send-keys", "-t", "t", "-l", k)
	}
	all := tt.waitScreen("the typed abc", func(s string) bool { return strings.Contains(s, "❯ abc") })
	if n := count(all, "Tasks 1/4"); n != 2 { // the one cleared away, the live one
		t.Errorf("%d panel titles, want 2:\n%s", n, all)
	}
	if scr := tt.screen(); count(scr, "Tasks 1/4") != 1 || !strings.HasPrefix(scr, "╭─ Tasks 1/4") {
		t.Errorf("the window after typing:\n%s", scr)
	}
	lines := strings.Split(strings.TrimRight(all, "\n"), "\n")
	for i, l := range lines[:len(lines)-1] {
		if strings.HasSuffix(strings.TrimRight(l, " "), "❯") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "╭─") && i > 0 && !strings.HasPrefix(lines[i-1], "╰") {
			t.Errorf("a stray prompt at row %d:\n%s", i, all)
		}
	}
}

// TestTmuxNarrowerWindowKeepsTheScreen: shrinking the window from 100 to
// 40 columns keeps the output on screen, redraws only the live area at the
// new width, and leaves no fragments of the wide panel (issue 8, item 6).
func TestTmuxNarrowerWindowKeepsTheScreen(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 100, 20)
	tt.command(todoWrite(1, 2), "Todo list updated: 1 completed, 1 in_progress, 2 pending")
	tt.command("echo keep-me-in-view", "keep-me-in-view")
	tt.run("resize-window", "-t", "t", "-x", "40")
	tt.waitUntil("a 40-column window", func() bool {
		return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{window_width}")) == "40"
	})
	tt.run("send-keys", "-t", "t", "-l", "z") // a redraw after the resize
	all := tt.waitScreen("the typed z", func(s string) bool { return strings.Contains(s, "❯ z") })
	if n := count(all, "Tasks 1/4"); n != 1 {
		t.Errorf("%d panel titles, want 1:\n%s", n, all)
	}
	if n := count(all, "──────"); n != 2 { // the new panel's top and bottom
		t.Errorf("%d rows of box lines, want 2 (fragments of the old panel?):\n%s", n, all)
	}
	if scr := tt.screen(); !hasLine(scr, "keep-me-in-view") {
		t.Errorf("the last output left the window:\n%s", scr)
	}
}

// TestFaultAutoWrapRestored: the terminal's auto-wrap, off while the live
// area is drawn, is on again after the shell ends, however it ends.
func TestFaultAutoWrapRestored(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"ctrl+d", "SIGTERM", "SIGINT", "exit"} {
		t.Run(how, func(t *testing.T) {
			tt := startTmux(t, 60, 12)
			tt.command(todoWrite(0, 1, "ok 👍🏽 क्षि"), "Todo list updated: 0 completed, 1 in_progress, 2 pending")
			tt.paste("echo still typing")
			tt.waitScreen("the typed line", func(s string) bool { return strings.Contains(s, "❯ echo still typing") })
			pid := strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_pid}"))
			switch how {
			case "ctrl+d":
				tt.run("send-keys", "-t", "t", "C-u", "C-d") // empty the line, then leave
			case "exit":
				tt.run("send-keys", "-t", "t", "C-u")
				tt.paste("exit")
				tt.run("send-keys", "-t", "t", "Enter")
			default:
				if out, err := exec.Command("kill", "-"+strings.TrimPrefix(how, "SIG"), pid).CombinedOutput(); err != nil {
					t.Fatalf("kill: %v %s", err, out)
				}
			}
			tt.waitUntil("the shell to end", func() bool {
				return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_dead}")) == "1"
			})
			if wrap := strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{wrap_flag}")); wrap != "1" {
				t.Fatalf("auto-wrap left off (wrap_flag %q)", wrap)
			}
		})
	}
}
