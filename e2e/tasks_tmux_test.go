package e2e

import (
	"strings"
	"testing"
)

// TestTmuxClearingAnOwnerSaysWhatIsRefused: at the shell, clearing the
// owner of a task in progress while a task with no owner is in progress is
// refused saying what is refused and why, with the call that does it; that
// call works (issue 29, item 12). Before, it got the in-progress limit's
// message ("Only one task can be in_progress at a time (#4 is)").
func TestTmuxClearingAnOwnerSaysWhatIsRefused(t *testing.T) {
	t.Parallel()
	tt, _, _ := planShell(t, 100, 30, "--plan", "own")
	for i, subject := range []string{"A", "B", "C", "D"} {
		tt.command(`TaskCreate '{"subject":"`+subject+`","description":"d"}'`, "Task #"+string(rune('1'+i))+" created successfully: "+subject)
	}
	tt.command(`TaskUpdate '{"taskId":"4","status":"in_progress"}'`, "Updated task #4 status")
	tt.command(`TaskUpdate '{"taskId":"3","status":"in_progress","owner":"bob"}'`, "Updated task #3 status, owner")
	tt.paste(`TaskUpdate '{"taskId":"3","owner":""}'`)
	tt.run("send-keys", "-t", "t", "Enter")
	want := `Error: Task #3 is in_progress: clearing its owner (bob) would make it a second in_progress task with no owner (#4 is one); the limit is one in_progress task per owner, the tasks with no owner counting as one. Clear the owner and set it back to pending together: TaskUpdate '{"taskId":"3","owner":"","status":"pending"}'`
	tt.waitUntil("the refusal", func() bool { return strings.Contains(tt.joined(), want) && idle(tt.all()) })
	tt.paste(`TaskUpdate '{"taskId":"3","owner":"","status":"pending"}'`)
	tt.run("send-keys", "-t", "t", "Enter")
	tt.waitScreen("the call it gave done", func(s string) bool { return count(s, "Updated task #3 status, owner") == 2 && idle(s) })
	// The panel is drawn in a frame of its own after the result.
	tt.waitUntil("task 3 pending with no owner in the panel", func() bool { return hasLine(boxText(tt.screen()), "○ #3 C") })
}

// TestTmuxTaskGetWithAnIDAloneGetsTheUsage: `TaskGet 2` says how to call
// it, with the id, as `TaskGet` alone does (issue 29, item 19).
func TestTmuxTaskGetWithAnIDAloneGetsTheUsage(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 80, 24)
	tt.command("TaskGet", `Usage: TaskGet '{"taskId":"1"}'`)
	tt.command("TaskGet 2", `Usage: TaskGet '{"taskId":"2"}'`)
}
