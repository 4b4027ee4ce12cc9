package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTmuxControlReadsAsCapturePaneDoes: what the waits read through the
// control-mode client is, byte for byte, what a tmux process prints for
// the same command (the screen, the scrollback, colours, joined lines, a
// format), so a test sees the same text on either path; and a command the
// control client cannot carry goes to a process.
func TestTmuxControlReadsAsCapturePaneDoes(t *testing.T) {
	t.Parallel()
	line := `printf '\033[31mred\033[0m tab\there \\ back ❯ 表\n   indented\n'; seq 1 40; printf '%080d' 0 | tr 0 w; echo; echo ready; exec cat`
	tt := tmuxSh(t, 60, 10, t.TempDir(), line)
	tt.waitScreen("the text", func(s string) bool { return hasLine(s, "ready") })
	for _, args := range [][]string{
		{"capture-pane", "-p", "-t", "t"},
		{"capture-pane", "-p", "-S", "-", "-t", "t"},
		{"capture-pane", "-p", "-e", "-S", "-", "-t", "t"},
		{"capture-pane", "-p", "-J", "-S", "-", "-t", "t"},
		{"display-message", "-p", "-t", "t", "#{pane_dead} #{window_width}x#{window_height} #{cursor_x},#{cursor_y}"},
	} {
		fast, ok := tt.look(args)
		if !ok {
			t.Fatalf("%q did not go through the control client", args)
		}
		slow, err := exec.Command("tmux", append([]string{"-S", tt.socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v\n%s", args, err, slow)
		}
		if fast != string(slow) {
			t.Errorf("%q: the control client read\n%q\na tmux process printed\n%q", args, fast, slow)
		}
	}
	if !strings.Contains(tt.all(), "red tab") {
		t.Fatalf("no first line in the scrollback:\n%s", tt.all())
	}
	for _, args := range [][]string{
		{"send-keys", "-t", "t", "x"},
		{"display-message", "-p", "-t", "t", "it's"},
	} {
		if _, ok := tt.look(args); ok {
			t.Errorf("%q went through the control client", args)
		}
	}
}
