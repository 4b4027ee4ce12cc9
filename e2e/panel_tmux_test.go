package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sizes are the terminal sizes the panel tests try.
var sizes = [][2]int{{100, 30}, {80, 24}, {60, 20}}

// resize resizes the tmux window and waits until it has the new size.
func (tt *tmuxTerm) resize(cols, rows int) {
	tt.t.Helper()
	tt.run("resize-window", "-t", "t", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows))
	want := fmt.Sprintf("%dx%d", cols, rows)
	tt.waitScreen("a "+want+" window", func(string) bool {
		return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{window_width}x#{window_height}")) == want
	})
}

// dir is the directory the shell runs in.
func (tt *tmuxTerm) dir() string {
	return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_current_path}"))
}

// TestTmuxResizeWhileRunningLeavesNoPanelFragments: resizing the window
// while a command runs (its spinner and output redrawing the live area)
// leaves no piece of the old panel — its wide border, its first rows — in
// the scrollback (issue 16, item 12).
func TestTmuxResizeWhileRunningLeavesNoPanelFragments(t *testing.T) {
	for _, from := range sizes {
		t.Run(fmt.Sprintf("%dx%d", from[0], from[1]), func(t *testing.T) {
			tt := startTmux(t, from[0], from[1])
			long := "Write the part of the plan whose name is long enough to make the panel wide"
			tt.command(todoWrite(1, 2, long), "Todo list updated: 1 completed, 1 in_progress, 3 pending")
			gate := filepath.Join(tt.dir(), "go-on")
			// The command prints until the test lets it end: no sleep in
			// the test, and the spinner redraws throughout.
			tt.paste(fmt.Sprintf("i=0; until [ -e %s ]; do i=$((i+1)); echo out-$i; sleep 0.01; done; echo finished-running", gate))
			tt.run("send-keys", "-t", "t", "Enter")
			tt.waitScreen("the running command", func(s string) bool { return strings.Contains(s, "Running") && strings.Contains(s, "out-3") })
			for _, to := range append(sizes, from) {
				tt.resize(to[0], to[1])
				tt.waitScreen("the panel redrawn", func(s string) bool { return strings.Contains(tt.screen(), "Tasks 1/5") })
			}
			if err := os.WriteFile(gate, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			all := tt.waitScreen("the command's end", func(s string) bool { return hasLine(s, "finished-running") && idle(s) })
			if n := count(all, "Tasks 1/5"); n != 1 {
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
