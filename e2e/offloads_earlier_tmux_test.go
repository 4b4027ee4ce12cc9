package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// respawn starts todo-shell with args again in tt's window, whose last one
// ended (remain-on-exit keeps the window), in dir with its offload
// directory, and waits for want and an idle prompt.
func (tt *tmuxTerm) respawn(dir, want string, args ...string) *tmuxTerm {
	tt.t.Helper()
	tt.run("clear-history", "-t", "t")
	cmd := fmt.Sprintf("cd %s && NO_COLOR=1 TERM=tmux-256color exec %s --offload-dir %s %s", dir, binary, filepath.Join(dir, ".offload"), strings.Join(args, " "))
	tt.run("respawn-pane", "-k", "-t", "t", cmd)
	tt.waitScreen(want, func(s string) bool { return strings.Contains(s, want) && idle(s) })
	return tt
}

// TestTmuxOffloadsAfterContinueShowTheCommand: after --continue, /offloads
// shows the command that made each file of the earlier run, marked as from
// an earlier run (issue 29, item 10). Before, it said "(from an earlier
// run)" where the command should be.
func TestTmuxOffloadsAfterContinueShowTheCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tt := startTmuxIn(t, 100, 30, dir)
	tt.command(todoWrite(1, 1), "Todo list updated: 1 completed, 1 in_progress, 1 pending")
	tt.command("seq 1 5000", "  5000")
	// Its end: "  5000" is on the screen while it still runs, in its
	// last lines under the spinner.
	tt.waitScreen("the pointer", func(s string) bool { return strings.Contains(s, "[Tool result offloaded to file:") && idle(s) })
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitScreen("the shell's end", func(s string) bool { return strings.Contains(s, "saved · cd ") })
	again := tt.respawn(dir, "resumed session-", "--continue")
	again.command("/offloads", "Open one with /open N (the last with /open).")
	s := again.all()
	if !strings.Contains(s, "seq 1 5000  ↺ earlier run") || strings.Contains(s, "(from an earlier run)") {
		notes, _ := filepath.Glob(filepath.Join(dir, ".offload", "*", "*"))
		t.Errorf("/offloads after --continue:\n%s\nfiles: %v", s, notes)
		for _, n := range notes {
			if strings.HasSuffix(n, "offloads.jsonl") {
				b, _ := os.ReadFile(n)
				t.Logf("%s: %q", n, b)
			}
		}
	}
	again.command("seq 1 3000", "  3000")
	again.waitScreen("the pointer", func(s string) bool { return count(s, "[Tool result offloaded to file:") == 1 && idle(s) })
	again.paste("/offloads")
	again.run("send-keys", "-t", "t", "Enter")
	// The second listing: the first one's last line is on the screen too.
	s = again.waitScreen("the second listing", func(s string) bool {
		return count(s, "Open one with /open N (the last with /open).") == 2 && idle(s)
	})
	if !regexp.MustCompile(`(?m)^  2 +\S+ KB +3000  seq 1 3000$`).MatchString(s) {
		t.Errorf("this run's command, unmarked:\n%s", s)
	}
}
