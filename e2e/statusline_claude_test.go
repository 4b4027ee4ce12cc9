package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestRealClaudeCodeStatusLine: the real Claude Code, interactive in a
// 100×30 tmux (a real terminal), with `todo-shell statusline` as its
// statusLine: its bottom rows show "Tasks 1/3" while the model is at the
// plan's first step (the fake API holds the next turn until the test has
// seen it), then "Tasks 3/3" once the plan is done.
func TestRealClaudeCodeStatusLine(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	s := claudeScenario(t, []turn{
		{call("TodoWrite", todos("Write the parser=c", "Add tests=i", "Update the docs=p"))},
		{call("TodoWrite", todos("Write the parser=c", "Add tests=c", "Update the docs=c"))},
		text("All done."),
	}, "CLAUDE_CODE_ENABLE_TASKS=0", "TERM=xterm-256color")
	s.run.HoldDir = filepath.Join(s.dir, "hold")
	os.MkdirAll(s.run.HoldDir, 0o700)
	// The first run's questions answered: onboarding, the API key, the
	// project's trust.
	key := "sk-ant-fake-key-0123456789abcdef"
	conf, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{key[len(key)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{s.proj: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	})
	s.write("home/.claude/.claude.json", string(conf))
	s.write("home/.claude.json", string(conf))
	s.run.Command = append(s.run.Command, "--model", "claude-sonnet-4-5")

	socket := filepath.Join(s.dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	pane := fmt.Sprintf("env %s=%s %s", envOuter, s.config(), os.Args[0])
	tmux("-f", tmuxConfig(t), "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", pane)
	t.Cleanup(func() { exec.Command("tmux", "-S", socket, "kill-server").Run() })
	screen := func() string { return tmux("capture-pane", "-p", "-t", "t") }
	bottom := func() string {
		rows := strings.Split(strings.TrimRight(screen(), "\n"), "\n")
		return strings.Join(rows[max(0, len(rows)-4):], "\n")
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		testwait.For(t, 60*time.Second, what, ok, func() string { return "the terminal shows:\n" + screen() })
	}
	held := func(n int) bool {
		_, err := os.Stat(filepath.Join(s.run.HoldDir, fmt.Sprintf("held-%d", n)))
		return err == nil
	}
	release := func(n int) { os.WriteFile(filepath.Join(s.run.HoldDir, fmt.Sprintf("go-%d", n)), nil, 0o600) }

	wait("Claude Code's prompt", func() bool { return strings.Contains(screen(), "❯") })
	tmux("send-keys", "-t", "t", "-l", "Write a parser")
	tmux("send-keys", "-t", "t", "Enter")
	wait("the first turn asked for", func() bool { return held(0) })
	release(0)
	wait("the second turn asked for", func() bool { return held(1) })
	wait("'Tasks 1/3' in the bottom rows", func() bool { return strings.Contains(bottom(), "Tasks 1/3 ▸ Doing Add tests") })
	release(1)
	wait("the third turn asked for", func() bool { return held(2) })
	wait("'Tasks 3/3' in the bottom rows", func() bool { return strings.Contains(bottom(), "Tasks 3/3 ✓") })
	release(2)
	t.Logf("bottom rows at the end:\n%s", bottom())
	if how, _ := os.ReadFile(s.run.Note); len(how) > 0 {
		t.Logf("ran in %s", how)
	}
}
