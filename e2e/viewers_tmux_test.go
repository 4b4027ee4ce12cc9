package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// tmuxSh runs a sh command line in a cols×rows tmux window, in dir, and
// waits for nothing.
func tmuxSh(t *testing.T, cols, rows int, dir, line string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	tt := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	// A state directory of its own (history, plans), unless line sets
	// one: tests run in parallel.
	cmd := fmt.Sprintf("cd '%s' && XDG_STATE_HOME='%s' NO_COLOR=1 TERM=tmux-256color exec sh -c '%s'", dir, t.TempDir(), strings.ReplaceAll(line, "'", `'\''`))
	tt.newSession(tmuxConfig(t), cols, rows, cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
	return tt
}

// lineStarting reports whether a line of s starts with prefix.
func lineStarting(s, prefix string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestTmuxReplayStepSaysVersionAndKeys: replay --step shows, under its
// panel, the plan version shown and the keys that work there; space and →
// go on, ← goes back; q leaves the panel without the keys line, and the
// shell's prompt after replay starts on a line of its own.
func TestTmuxReplayStepSaysVersionAndKeys(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "todos.jsonl")
			writeJournal(t, file)
			tt := tmuxSh(t, sz[0], sz[1], dir, binary+" replay --step todos.jsonl; printf \"PROMPT\\$ \"; sleep 60")
			has := func(what string) {
				t.Helper()
				tt.waitUntil(what, func() bool { return strings.Contains(tt.screen(), what) })
			}
			has("version 1/3 · space/→ next · q quit")
			tt.run("send-keys", "-t", "t", "Space")
			has("version 2/3 · space/→ next · ← back · q quit")
			tt.run("send-keys", "-t", "t", "Left")
			has("version 1/3 · space/→ next · q quit")
			tt.run("send-keys", "-t", "t", "Right", "Right")
			has("version 3/3 (end) · ← back · q quit")
			tt.run("send-keys", "-t", "t", "q")
			tt.waitUntil("the prompt after replay", func() bool { return lineStarting(tt.screen(), "PROMPT$") })
			scr := tt.screen() // (← back redraws: the scrollback keeps the screens before)
			if strings.Contains(scr, "q quit") || !strings.Contains(scr, "● Adding tests") {
				t.Errorf("after q, the last panel without the keys line:\n%s", scr)
			}
		})
	}
}

// TestTmuxReplayEndsWithANewline: after a replay played to its end, the
// shell's prompt starts on a line of its own, not after the panel's
// bottom border.
func TestTmuxReplayEndsWithANewline(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			dir := t.TempDir()
			writeJournal(t, filepath.Join(dir, "todos.jsonl"))
			tt := tmuxSh(t, sz[0], sz[1], dir, binary+" replay --speed 1000 todos.jsonl; printf \"PROMPT\\$ \"; sleep 60")
			tt.waitUntil("the prompt", func() bool { return strings.Contains(tt.screen(), "PROMPT$") })
			if scr := tt.screen(); !lineStarting(scr, "PROMPT$") {
				t.Errorf("the prompt does not start its line:\n%s", scr)
			}
		})
	}
}

// TestTmuxWatchHeaderIsCutNotWrapped: a watch header wider than the
// window (here the offload directory's long name, in wide characters) is
// cut with "…" in that name, within the width, on one row, "q quits"
// kept.
func TestTmuxWatchHeaderIsCutNotWrapped(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			dir := t.TempDir()
			off := filepath.Join(dir, strings.Repeat("漢字", 30))
			if err := os.MkdirAll(off, 0o700); err != nil {
				t.Fatal(err)
			}
			tt := tmuxSh(t, sz[0], sz[1], dir, binary+" watch --offload-dir "+off)
			tt.waitUntil("the waiting line", func() bool { return strings.Contains(tt.screen(), "waiting for a plan…") })
			scr := tt.screen()
			rows := strings.Split(scr, "\n")
			head := strings.TrimRight(rows[0], " ")
			if !strings.HasPrefix(head, "no session yet · sessions in ") || !strings.Contains(head, "…") || !strings.HasSuffix(head, " · q quits") || ansi.StringWidth(head) > sz[0]-1 {
				t.Errorf("header %q (%d cells), want it cut with … within %d:\n%s", head, ansi.StringWidth(head), sz[0]-1, scr)
			}
			if !strings.HasPrefix(rows[1], "waiting for a plan…") {
				t.Errorf("the header took more than a row:\n%s", scr)
			}
		})
	}
}
