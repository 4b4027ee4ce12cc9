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
	t.Parallel()
	c := startClaudeInTmux(t, 100, 30, []turn{
		{call("TodoWrite", todos("Write the parser=c", "Add tests=i", "Update the docs=p"))},
		{call("TodoWrite", todos("Write the parser=c", "Add tests=c", "Update the docs=c"))},
		text("All done."),
	})
	c.prompt("Write a parser")
	c.step(0)
	c.waitBottom("Tasks 1/3 ▸ Doing Add tests")
	c.step(1)
	c.waitBottom("Tasks 3/3 ✓")
	c.step(2)
}

// TestRealClaudeCodeStatusLineNarrow: at 60 columns a long item in
// progress is cut so that the dropped count still shows (Claude Code cuts
// a line too long at the terminal's edge, and passes the width in
// COLUMNS).
func TestRealClaudeCodeStatusLineNarrow(t *testing.T) {
	t.Parallel()
	c := startClaudeInTmux(t, 60, 20, []turn{
		{call("TodoWrite", todos("Write the parser=c", "Add tests=i", "Update the docs=p"))},
		// Add tests dropped; the docs item reworded (the same item).
		{call("TodoWrite", todos("Write the parser=c", "Update the docs for the config option=i"))},
		text("All done."),
	})
	c.prompt("Write a parser")
	c.step(0)
	c.step(1)
	c.waitBottom("Tasks 1/2 ▸ Doing Update the docs for the c… · 1 dropped")
}

// claudeInTmux is Claude Code, interactive, in a tmux of its own.
type claudeInTmux struct {
	t      *testing.T
	s      *cliScenario
	socket string
	term   *tmuxTerm // its commands, through the control client
}

// startClaudeInTmux starts Claude Code in a cols×rows tmux with
// todo-shell's hooks and status line, the fake API holding each turn until
// step lets it go, and waits for its prompt.
func startClaudeInTmux(t *testing.T, cols, rows int, script []turn) *claudeInTmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	s := claudeScenario(t, script, "CLAUDE_CODE_ENABLE_TASKS=0", "TERM=xterm-256color")
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

	c := &claudeInTmux{t: t, s: s, socket: filepath.Join(s.dir, "tmux.sock")}
	c.term = &tmuxTerm{t: t, socket: c.socket}
	pane := fmt.Sprintf("env %s=%s %s", envOuter, s.config(), os.Args[0])
	c.tmux("-f", tmuxConfig(t), "new-session", "-d", "-s", "t", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), pane)
	t.Cleanup(func() {
		c.quit()
		exec.Command("tmux", "-S", c.socket, "kill-server").Run()
		if how, _ := os.ReadFile(s.run.Note); len(how) > 0 {
			t.Logf("ran in %s", how)
		}
	})
	c.wait("Claude Code's prompt", func() bool { return strings.Contains(c.screen(), "❯") })
	return c
}

// quit ends Claude Code as a person does (Ctrl+C twice) and waits for it
// and the helpers around it to be gone, so that nothing writes in the
// test's directories once the test is over. Turns still held are let go.
func (c *claudeInTmux) quit() {
	for n := 0; n < 16; n++ {
		os.WriteFile(filepath.Join(c.s.run.HoldDir, fmt.Sprintf("go-%d", n)), nil, 0o600)
	}
	testwait.For(c.t, 30*time.Second, "Claude Code to exit", func() bool {
		out, err := exec.Command("tmux", "-S", c.socket, "display-message", "-p", "-t", "t", "#{pane_dead}").Output()
		if err != nil || strings.TrimSpace(string(out)) == "1" {
			return true
		}
		exec.Command("tmux", "-S", c.socket, "send-keys", "-t", "t", "C-c").Run()
		return false
	}, func() string { return "the terminal shows:\n" + c.screen() })
}

func (c *claudeInTmux) tmux(args ...string) string {
	c.t.Helper()
	return c.term.run(args...)
}

func (c *claudeInTmux) screen() string { return c.tmux("capture-pane", "-p", "-t", "t") }

// bottom is the window's last four rows: the prompt's frame, the status
// line and the mode line.
func (c *claudeInTmux) bottom() string {
	rows := strings.Split(strings.TrimRight(c.screen(), "\n"), "\n")
	return strings.Join(rows[max(0, len(rows)-4):], "\n")
}

func (c *claudeInTmux) wait(what string, ok func() bool) {
	c.t.Helper()
	testwait.For(c.t, 60*time.Second, what, ok, func() string { return "the terminal shows:\n" + c.screen() })
}

func (c *claudeInTmux) prompt(text string) {
	c.t.Helper()
	c.tmux("send-keys", "-t", "t", "-l", text)
	c.tmux("send-keys", "-t", "t", "Enter")
}

// step waits for the model's turn n to be asked for and lets it go.
func (c *claudeInTmux) step(n int) {
	c.t.Helper()
	held := filepath.Join(c.s.run.HoldDir, fmt.Sprintf("held-%d", n))
	c.wait(fmt.Sprintf("turn %d asked for", n), func() bool { _, err := os.Stat(held); return err == nil })
	os.WriteFile(filepath.Join(c.s.run.HoldDir, fmt.Sprintf("go-%d", n)), nil, 0o600)
}

// waitBottom waits for want in the bottom rows.
func (c *claudeInTmux) waitBottom(want string) {
	c.t.Helper()
	c.wait(fmt.Sprintf("%q in the bottom rows", want), func() bool { return strings.Contains(c.bottom(), want) })
}
