package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mixedSession makes the session "mix" in dir/.offload, as a person at the
// shell would: two todos (one done, one in progress) and two tasks (one
// done, one in progress): the shell's panel shows "Tasks 2/4".
func mixedSession(t *testing.T, dir, state string) {
	t.Helper()
	script := strings.Join([]string{
		`TodoWrite '{"todos":[{"content":"Plan it","activeForm":"Planning it","status":"completed"},{"content":"Build it","activeForm":"Building it","status":"in_progress"}]}'`,
		`TaskCreate '{"subject":"Write docs","description":"d"}'`,
		`TaskCreate '{"subject":"Test","description":"d","activeForm":"Testing it"}'`,
		`TaskUpdate '{"taskId":"1","status":"completed"}'`,
		`TaskUpdate '{"taskId":"2","status":"in_progress"}'`,
	}, "\n") + "\n"
	file := filepath.Join(dir, "mix.txt")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "--offload-dir", filepath.Join(dir, ".offload"), "--session", "mix", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestTmuxWatchShowsTodosAndTasks: `watch`, `watch --all` (a box opened)
// and the note of `--continue` show what the shell's own panel shows, the
// todos and then the tasks (issue 29, item 7): "Tasks 2/4", where they
// showed the todos alone ("Tasks 1/2", "1/2", "2 todos, 1 in progress").
// A task created while watch runs shows at once.
func TestTmuxWatchShowsTodosAndTasks(t *testing.T) {
	t.Parallel()
	t.Run("watch", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		mixedSession(t, dir, state)
		tt := startTmuxIn(t, 80, 24, dir, "watch", "mix")
		tt.waitScreen("the todos and the tasks", func(s string) bool {
			return strings.Contains(s, "Tasks 2/4") && hasLine(boxText(s), "● #2 Testing it") && hasLine(boxText(s), "● Building it")
		})
		cmd := exec.Command(binary, "--offload-dir", filepath.Join(dir, ".offload"), "--resume", "mix", "-c", `TaskCreate '{"subject":"Ship","description":"d"}'`)
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		tt.waitScreen("the new task", func(s string) bool {
			return strings.Contains(tt.screen(), "Tasks 2/5") && hasLine(boxText(tt.screen()), "○ #3 Ship")
		})
	})
	t.Run("watch --all", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		mixedSession(t, dir, state)
		env := "NO_COLOR=1 HOME=" + dir + " CODEX_HOME= CLAUDE_CONFIG_DIR= XDG_STATE_HOME=" + state + " XDG_DATA_HOME=" + filepath.Join(dir, "share")
		tt := startTmuxEnv(t, 80, 24, dir, env, "watch", "--all")
		tt.waitScreen("the session's box", func(s string) bool {
			return strings.Contains(s, "todo-shell · mix") && strings.Contains(s, " 2/4 ")
		})
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitUntil("the session opened", func() bool {
			s := tt.screen()
			return strings.Contains(s, "Tasks 2/4") && hasLine(boxText(s), "● #2 Testing it")
		})
	})
	t.Run("--continue", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		state := filepath.Join(dir, "state")
		mixedSession(t, dir, state)
		tt := startTmuxEnv(t, 80, 24, dir, "NO_COLOR=1 XDG_STATE_HOME="+state, "--continue")
		tt.waitScreen("the note and the panel", func(s string) bool {
			return strings.Contains(s, "resumed mix: 2 todos, 1 in progress; 2 tasks, 1 in progress") && strings.Contains(s, "Tasks 2/4")
		})
	})
}

// boxText is the rows of the task box on a screen, one a line, its
// borders taken off.
func boxText(scr string) string {
	rows, _, _ := panelBox(scr)
	return strings.Join(rows, "\n")
}
