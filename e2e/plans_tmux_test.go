package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// planShell runs the shell in a cols×rows tmux window with its own state
// directory (where shared plans live), and args.
func planShell(t *testing.T, cols, rows int, args ...string) (tt *tmuxTerm, dir, state string) {
	t.Helper()
	dir = t.TempDir()
	state = filepath.Join(dir, "state")
	return startTmuxEnv(t, cols, rows, dir, "NO_COLOR=1 XDG_STATE_HOME="+state, args...), dir, state
}

// todoShellIn runs todo-shell with args in dir with the state directory
// state, and returns its output.
func todoShellIn(t *testing.T, dir, state string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("todo-shell %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestTmuxQuittingAPlanShellSaysHowToComeBack: Ctrl+D in a `--plan NAME`
// shell whose session kept nothing of its own (the tasks are the plan's)
// says how to come back, and that command brings the plan back (issue 29,
// item 8). Before, it printed nothing.
func TestTmuxQuittingAPlanShellSaysHowToComeBack(t *testing.T) {
	t.Parallel()
	tt, dir, state := planShell(t, 80, 24, "--plan", "p8")
	tt.command(`TaskCreate '{"subject":"Ship it","description":"d"}'`, "Task #1 created successfully: Ship it")
	tt.run("send-keys", "-t", "t", "C-d")
	tt.waitScreen("the note", func(s string) bool { return hasLine(s, "plan p8 kept · todo-shell --plan p8") })
	if err := os.Mkdir(filepath.Join(dir, "again"), 0o700); err != nil {
		t.Fatal(err)
	}
	again := startTmuxEnv(t, 80, 24, filepath.Join(dir, "again"), "NO_COLOR=1 XDG_STATE_HOME="+state, "--plan", "p8")
	again.waitScreen("the plan back", func(s string) bool { return hasLine(boxText(s), "○ #1 Ship it") })
}

// TestTmuxSharedPlansListedAndRemoved: from a shell on the plan busy, a
// person lists the shared plans (sessions), removes one no process uses
// (clean --plan), is refused removing the one in use, sees a typo to watch
// --plan --once said and exit 1, and `--plan newplan -c TaskList` leaves no
// directory (issue 29, item 9). Before, sessions and clean knew no plan,
// watch said "waiting for a plan…" and exited 0, and newplan/ stayed.
func TestTmuxSharedPlansListedAndRemoved(t *testing.T) {
	t.Parallel()
	tt, dir, state := planShell(t, 100, 30, "--plan", "busy")
	tt.command(`TaskCreate '{"subject":"Build","description":"d","activeForm":"Building"}'`, "Task #1 created successfully: Build")
	tt.command(`TaskUpdate '{"taskId":"1","status":"in_progress","owner":"ann"}'`, "Updated task #1 status, owner")
	todoShellIn(t, dir, state, "--plan", "old", "-c", `TaskCreate '{"subject":"Old work","description":"d"}'`)
	todoShellIn(t, dir, state, "--plan", "newplan", "-c", "TaskList")
	plans := filepath.Join(state, "todo-shell", "plans")
	if _, err := os.Stat(filepath.Join(plans, "newplan")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--plan newplan -c TaskList left its directory: %v", err)
	}
	bin := binary
	tt.command(bin+" sessions", "old   just now  0/1   -            -      -")
	if s := tt.all(); !hasLine(s, "PLAN  CHANGED   DONE  IN PROGRESS  OWNER  IN USE") || !hasLine(s, "busy  just now  0/1   Building     @ann   yes") {
		t.Errorf("sessions does not list the plans:\n%s", s)
	}
	tt.command(bin+" clean --plan busy; echo busy-status=$?", "busy-status=1")
	if s := tt.all(); !strings.Contains(s, "todo-shell: clean: plan busy is in use by a running todo-shell; it was not removed") {
		t.Errorf("clean --plan of a plan in use:\n%s", s)
	}
	tt.command(bin+" clean --plan old; echo old-status=$?", "old-status=0")
	if s := tt.all(); !strings.Contains(s, "removed plan old (last change ") {
		t.Errorf("clean --plan:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(plans, "old")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("plan old not removed: %v", err)
	}
	tt.command(bin+" watch --plan bussy --once; echo typo-status=$?", "typo-status=1")
	if s := tt.joined(); !strings.Contains(s, "todo-shell: watch: no plan bussy in "+plans+" (see todo-shell sessions)") {
		t.Errorf("watch --plan of a typo:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(plans, "bussy")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("watch --plan of a typo made its directory: %v", err)
	}
}

// TestTmuxPlanNameErrorIsAPersonsWords: a bad plan name is refused in a
// person's words, without the internal "offload:" (issue 29, item 18).
func TestTmuxPlanNameErrorIsAPersonsWords(t *testing.T) {
	t.Parallel()
	tt, _, _ := planShell(t, 100, 30)
	tt.command(binary+" --plan ../x -c TaskList; echo status=$?", "status=2")
	s := tt.all()
	if !strings.Contains(s, `todo-shell: --plan: plan name "../x" may hold only letters, digits, '_' and '-'`) || strings.Contains(s, "offload:") {
		t.Errorf("the error:\n%s", s)
	}
}
