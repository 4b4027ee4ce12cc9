package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLeavingAPlanShellNamesThePlan: a shell started with --plan NAME says
// on leaving the command that comes back to it with --plan NAME, so the
// resumed shell has the tasks too.
func TestLeavingAPlanShellNamesThePlan(t *testing.T) {
	dir, off, state := t.TempDir(), filepath.Join(t.TempDir(), "off"), t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state}
	tt := startTmuxWith(t, 120, 24, dir, "❯", env, "--plan", "build", "--session", "pb", "--offload-dir", off)
	tt.command(`TaskCreate '{"subject":"Read the spec","description":""}'`, "Task #1 created successfully: Read the spec")
	tt.command(todoWrite(0, 1), "Todo list updated: 0 completed, 1 in_progress, 1 pending")
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitScreen("the note on leaving, with --plan build", func(string) bool {
		return strings.Contains(tt.joined(), "todo-shell --resume pb --plan build --offload-dir ")
	})
}

// TestSessionDirectoryRemovedUnderTheShell: with the offload directory
// removed under a running shell, TodoWrite is refused saying the plan
// cannot be saved (naming the directory), and leaving neither claims the
// session was saved nor gives a command to resume it.
func TestSessionDirectoryRemovedUnderTheShell(t *testing.T) {
	dir, off := t.TempDir(), filepath.Join(t.TempDir(), "off")
	tt := startTmuxWith(t, 120, 24, dir, "❯", nil, "--session", "del", "--offload-dir", off)
	tt.command(todoWrite(0, 1), "Todo list updated: 0 completed, 1 in_progress, 1 pending")
	if err := os.RemoveAll(off); err != nil {
		t.Fatal(err)
	}
	tt.paste(todoWrite(1, 1))
	tt.run("send-keys", "-t", "t", "Enter")
	want := "Error: the plan cannot be saved: session directory " + filepath.Join(off, "del") + " is gone"
	tt.waitScreen(want, func(string) bool { return strings.Contains(tt.joined(), want) })
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitScreen("the warning on leaving", func(string) bool {
		return strings.Contains(tt.joined(), "todo-shell: warning: session not saved: session directory")
	})
	if all := tt.joined(); strings.Contains(all, "saved ·") || strings.Contains(all, "Todo list updated: 1 completed, 1 in_progress") {
		t.Fatalf("claims it saved:\n%s", all)
	}
}

// TestTabTaskCreateTemplateIsAccepted: `TaskCreate ` and Tab offers only
// the required fields, so typing a subject into it and Enter creates the
// task (an empty optional "activeForm" was refused as "cannot be empty").
func TestTabTaskCreateTemplateIsAccepted(t *testing.T) {
	tt := startTmuxWith(t, 100, 24, "", "❯", []string{"XDG_STATE_HOME=" + t.TempDir()}, "--offload-dir", filepath.Join(t.TempDir(), "off"))
	tt.run("send-keys", "-t", "t", "-l", "TaskCreate ")
	tt.waitRow("TaskCreate")
	tt.run("send-keys", "-t", "t", "Tab")
	tt.waitScreen("the template", func(s string) bool { return strings.Contains(s, `"subject"`) })
	if s := tt.screen(); strings.Contains(s, "activeForm") {
		t.Fatalf("the template offers an empty optional field:\n%s", s)
	}
	tt.run("send-keys", "-t", "t", "-l", "Read the spec")
	tt.run("send-keys", "-t", "t", "Enter")
	tt.waitScreen("the task created", func(s string) bool { return hasLine(s, "Task #1 created successfully: Read the spec") })
}
