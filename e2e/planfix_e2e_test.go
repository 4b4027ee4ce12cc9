package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLeavingAPlanShellNamesThePlan: a shell started with --plan NAME says
// on leaving the command that comes back to it with --plan NAME, so the
// resumed shell has the tasks too; that shell's note names the plan.
func TestLeavingAPlanShellNamesThePlan(t *testing.T) {
	t.Parallel()
	dir, off, state := t.TempDir(), filepath.Join(t.TempDir(), "off"), t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state}
	tt := startTmuxWith(t, 120, 24, dir, "❯", env, "--plan", "build", "--session", "pb", "--offload-dir", off)
	tt.command(`TaskCreate '{"subject":"Read the spec","description":""}'`, "Task #1 created successfully: Read the spec")
	tt.command(todoWrite(0, 1), "Todo list updated: 0 completed, 1 in_progress, 1 pending")
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitUntil("the note on leaving, with --plan build", func() bool {
		return strings.Contains(tt.joined(), "todo-shell --resume pb --plan build --offload-dir ")
	})
	back := startTmuxWith(t, 120, 24, dir, "❯", env, "--resume", "pb", "--plan", "build", "--offload-dir", off)
	want := "resumed pb on plan build: 2 todos, 1 in progress"
	back.waitUntil(want, func() bool { return strings.Contains(back.joined(), want) })
}

// TestSessionDirectoryRemovedUnderTheShell: with the offload directory
// removed under a running shell, TodoWrite is refused saying the plan
// cannot be saved (naming the directory), and leaving neither claims the
// session was saved nor gives a command to resume it.
func TestSessionDirectoryRemovedUnderTheShell(t *testing.T) {
	t.Parallel()
	dir, off := t.TempDir(), filepath.Join(t.TempDir(), "off")
	tt := startTmuxWith(t, 120, 24, dir, "❯", nil, "--session", "del", "--offload-dir", off)
	tt.command(todoWrite(0, 1), "Todo list updated: 0 completed, 1 in_progress, 1 pending")
	if err := os.RemoveAll(off); err != nil {
		t.Fatal(err)
	}
	tt.paste(todoWrite(1, 1))
	tt.run("send-keys", "-t", "t", "Enter")
	want := "Error: the plan cannot be saved: session directory " + filepath.Join(off, "del") + " is gone"
	tt.waitUntil(want, func() bool { return strings.Contains(tt.joined(), want) })
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitUntil("the warning on leaving", func() bool {
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
	t.Parallel()
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

// TestWatchNoSuchSession: `watch ID` of a session that does not exist says
// so, names the offload directory and points to `sessions`, and exits 1
// instead of waiting forever.
func TestWatchNoSuchSession(t *testing.T) {
	t.Parallel()
	off := filepath.Join(t.TempDir(), "off")
	startPiped(t, off, "real")
	cmd := exec.Command(binary, "watch", "--offload-dir", off, "nosuch")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("exit: %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("watch nosuch still waiting after 5 s:\n%s", out.String())
	}
	if want := "no session nosuch in " + off + " (see todo-shell sessions)"; !strings.Contains(out.String(), want) {
		t.Fatalf("want %q in:\n%s", want, out.String())
	}
}

// TestWatchBesideALiveShellComesBack: the trial's steps. A live shell
// (main1) with a plan, `watch` beside it, a one-shot `-c TodoWrite` in
// another session (live for an instant), then main1's plan changes: watch
// shows main1's new plan, having said each move in one line, and stays
// on the live session.
func TestWatchBesideALiveShellComesBack(t *testing.T) {
	t.Parallel()
	off := filepath.Join(t.TempDir(), "off")
	main1 := startPiped(t, off, "main1")
	main1.plan("first")
	scr := watchOffload(t, off, 24, 100)
	scr.waitFor(t, "Doing first", 5*time.Second)
	if out, err := exec.Command(binary, "--offload-dir", off, "--session", "oneshot", "-c",
		`TodoWrite '{"todos":[{"content":"once","activeForm":"Doing once","status":"in_progress"}]}'`).CombinedOutput(); err != nil {
		t.Fatalf("oneshot: %v %s", err, out)
	}
	main1.plan("second")
	scr.waitUntil(t, "watch on main1's new plan", 5*time.Second, func(s string) bool {
		return strings.Contains(s, "Doing second") && strings.Contains(s, "watching main1")
	})
	if s := scr.text(); strings.Contains(s, "switched from main1 to oneshot") && !strings.Contains(s, "switched from oneshot to main1: oneshot has ended") {
		t.Fatalf("left main1 for oneshot without coming back:\n%s", s)
	}
}
