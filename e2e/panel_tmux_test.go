package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// resize resizes the tmux window and waits until it has the new size.
func (tt *tmuxTerm) resize(cols, rows int) {
	tt.t.Helper()
	tt.run("resize-window", "-t", "t", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows))
	want := fmt.Sprintf("%dx%d", cols, rows)
	tt.waitUntil("a "+want+" window", func() bool {
		return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{window_width}x#{window_height}")) == want
	})
}

// dir is the directory the shell runs in.
func (tt *tmuxTerm) dir() string {
	return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_current_path}"))
}

// TestTmuxResizeWhileRunningLeavesNoPanelFragments: resizing the window
// while a command runs (its output redrawing the live area 60 times a
// second) leaves no piece of the old panel — its wide border, its first
// rows — in the scrollback (issue 16, item 12). The window is made
// narrower by 20 columns and wider again six times, each step waiting for
// the shell to have redrawn at the new width.
//
// tmux reflows its screen at once but tells the program the new size
// later, and keeps the bottom of its screen in place (blank rows under the
// cursor count): a narrower window splits the panel's wide rows and pushes
// the live area up. A painter that climbed a counted number of rows to
// erase left the split rows above it; one that let the redrawn, shorter
// live area give rows back saw it pushed further up at each narrowing,
// until its first rows went off the top.
//
// The screen is filled first, as in a shell in use: near the top of an
// almost empty window a narrower one pushes the live area's first rows off
// the top, where no program can reach them (docs/shell.md; a clean CI run
// once failed on it at 100×30).
func TestTmuxResizeWhileRunningLeavesNoPanelFragments(t *testing.T) {
	t.Parallel()
	for _, from := range sizes {
		t.Run(fmt.Sprintf("%dx%d", from[0], from[1]), func(t *testing.T) {
			t.Parallel()
			tt := startTmux(t, from[0], from[1])
			tt.command(fmt.Sprintf("seq -f 'line-%%g' 1 %d", from[1]), fmt.Sprintf("line-%d", from[1]))
			long := strings.Repeat("wide ", from[0]/5-3) + "end"
			tt.command(todoWrite(1, 1, long), "Todo list updated: 1 completed, 1 in_progress, 2 pending")
			gate := filepath.Join(tt.dir(), "go-on")
			// The command prints until the test lets it end: no sleep in
			// the test, and the live area redraws throughout. A line every
			// 10 ms is more than the shell draws (it redraws at most 60
			// times a second); as fast as bash can print, the loop took
			// two cores from the rest of the suite.
			tt.paste(fmt.Sprintf("until [ -e %s ]; do echo out; sleep 0.01; done; echo finished-running", gate))
			tt.run("send-keys", "-t", "t", "Enter")
			// "Running until": the test's directory, in the command's
			// echo and in the offload path, is named …WhileRunning….
			tt.waitScreen("the running command", func(s string) bool { return strings.Contains(s, "Running until") && strings.Contains(s, "  out") })
			for range 6 {
				for _, to := range [][2]int{{from[0] - 20, from[1]}, from} {
					tt.resize(to[0], to[1])
					tt.waitUntil("the panel redrawn at the new width", func() bool {
						return redrawnAt(tt.screen(), to[0])
					})
				}
			}
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			all := tt.waitScreen("the command's end", func(s string) bool { return idle(s) && !strings.Contains(tt.screen(), "Running until") })
			if n := count(all, "Tasks 1/4"); n != 1 {
				t.Errorf("%d panel titles, want 1:\n%s", n, all)
			}
			if n := count(all, "────"); n != 2 { // the live panel's top and bottom
				t.Errorf("%d rows of box lines, want 2 (fragments of an old panel):\n%s", n, all)
			}
			if n := count(all, "│ ✓"); n > 1 {
				t.Errorf("%d rows of the panel's first item, want 1:\n%s", n, all)
			}
		})
	}
}

// redrawnAt reports that the shell has drawn its panel for a window cols
// wide: the long item's row ends in the border within the window (tmux
// rewraps at once; the shell hears of the new size later).
func redrawnAt(scr string, cols int) bool {
	for _, l := range strings.Split(scr, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.HasPrefix(l, "│ ○ wide") && strings.HasSuffix(l, "│") {
			w := len([]rune(l))
			return w <= cols-1 && (w >= cols-2 || strings.Contains(l, "end"))
		}
	}
	return false
}

// TestTmuxPanelKeepsToAThirdOfTheRows: a 30-item plan takes at most a
// third of the rows (never less than six), and its summary rows are whole
// (issue 16, item 13).
func TestTmuxPanelKeepsToAThirdOfTheRows(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tt := startTmux(t, size[0], size[1])
			tt.command(todoWrite(10, 19), "Todo list updated: 10 completed, 1 in_progress, 19 pending")
			// The panel is drawn in a frame of its own after the result:
			// wait for it on the screen.
			var scr string
			var lines []string
			top, bottom := -1, -1
			testwait.For(t, 10*time.Second, "the panel on the screen", func() bool {
				scr = tt.screen()
				lines = strings.Split(scr, "\n")
				top, bottom = -1, -1
				for i, l := range lines {
					if strings.HasPrefix(l, "╭─ Tasks 10/30") {
						top = i
					}
					if strings.HasPrefix(l, "╰") && top >= 0 && bottom < 0 {
						bottom = i
					}
				}
				return top >= 0 && bottom >= 0
			}, func() string { return scr })
			if n, most := bottom-top+1, max(6, size[1]/3); n > most {
				t.Errorf("the panel takes %d rows of %d, want at most %d:\n%s", n, size[1], most, scr)
			}
			for _, l := range lines[top : bottom+1] {
				if strings.Contains(l, "more") || strings.Contains(l, "completed") {
					if strings.Contains(l, "…") && !strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(l, "│")), "…") || !strings.HasSuffix(strings.TrimRight(l, " "), "│") {
						t.Errorf("a summary row cut: %q\n%s", l, scr)
					}
				}
			}
		})
	}
}

// TestTmuxFirstFrameWaitsForTheSize: a resumed 30-item plan in a small
// window leaves no frame drawn for a guessed size (80 columns, no height
// limit) in the scrollback: one panel title, no row wider than the window
// (issue 15, item 14).
func TestTmuxFirstFrameWaitsForTheSize(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{40, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			dir := t.TempDir()
			c := exec.Command(binary, "--offload-dir", filepath.Join(dir, ".offload"), "--session", "big", "-c", todoWrite(10, 19))
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			tt := startTmuxIn(t, size[0], size[1], dir, "--resume", "big")
			all := tt.waitScreen("the resumed panel", func(s string) bool { return strings.Contains(s, "Tasks 10/30") && idle(s) })
			if n := count(all, "Tasks 10/30"); n != 1 {
				t.Errorf("%d panel titles, want 1:\n%s", n, all)
			}
			if n := count(all, "╰"); n != 1 {
				t.Errorf("%d panel bottoms, want 1:\n%s", n, all)
			}
		})
	}
}
