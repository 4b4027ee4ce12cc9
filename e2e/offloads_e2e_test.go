package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOffloadsAfterCdAndResumeFromAnywhere: after `cd`, /offloads names
// the files by absolute paths and /open opens them (the pager runs in the
// new directory); the command printed on leaving resumes the session from
// any directory, and /offloads there lists the session's files.
func TestOffloadsAfterCdAndResumeFromAnywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tt := startTmuxWith(t, 200, 30, dir, "❯", []string{"PAGER='wc -l'"}) // the default offload directory, .offload: relative
	tt.command("seq 1 2000", "  … 1990 more lines")
	tt.enter("cd sub")
	tt.waitScreen("the prompt in sub", func(s string) bool { return idle(s) && strings.Contains(s, "sub ❯") })
	tt.enter("/offloads")
	file := regexp.MustCompile(`→ (/\S+\.md)`)
	var m []string
	tt.waitUntil("/offloads naming the file by its absolute path", func() bool {
		m = file.FindStringSubmatch(tt.joined()) // (200 columns: the path is not wrapped)
		return m != nil
	})
	tt.enter("/open")
	tt.waitScreen("the pager's end", func(s string) bool { return strings.Contains(s, "(ran in the terminal; exit status") })
	if s := tt.joined(); !hasLine(s, "2000 "+m[1]) || !strings.Contains(s, "exit status 0)") {
		t.Fatalf("/open after cd did not open %s:\n%s", m[1], s)
	}
	tt.run("send-keys", "-t", "t", "C-d")
	left := regexp.MustCompile(`session (\S+) saved · (cd \S+ && todo-shell --resume \S+)\s*$`)
	var hint []string
	tt.waitUntil("the note on leaving", func() bool {
		for _, l := range strings.Split(tt.joined(), "\n") {
			if hint = left.FindStringSubmatch(l); hint != nil {
				return true
			}
		}
		return false
	})
	// The command as printed, from another directory, todo-shell on PATH.
	back := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	back.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "200", "-y", "30",
		fmt.Sprintf("cd %s && PATH=%s:$PATH NO_COLOR=1 TERM=tmux-256color sh -c %q; exec cat", t.TempDir(), filepath.Dir(binary), hint[2]))
	t.Cleanup(func() { exec.Command("tmux", "-S", back.socket, "kill-server").Run() })
	back.waitScreen("the resumed shell", func(s string) bool { return strings.Contains(s, "resumed "+hint[1]) && strings.Contains(s, "❯") })
	back.enter("/offloads")
	back.waitUntil("/offloads of the resumed session", func() bool { return strings.Contains(back.joined(), "→ "+m[1]) })
}
