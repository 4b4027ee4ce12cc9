package e2e

import (
	"strings"
	"testing"
)

// TestTmuxTitleCountsWhatThePanelCounts: the terminal's title counts the
// todos and the tasks, as the panel's "Tasks d/n" does, and a plan of tasks
// alone sets it too.
func TestTmuxTitleCountsWhatThePanelCounts(t *testing.T) {
	t.Parallel()
	tt := startTmuxEnv(t, 100, 30, t.TempDir(), "")
	waitTitle := func(want string) {
		t.Helper()
		tt.waitUntil("the title "+want, func() bool { return tt.title() == want })
	}
	tt.command(`TaskCreate '{"subject":"Read the spec","description":""}'`, "Task #1 created successfully: Read the spec")
	waitTitle("0/1")
	tt.command(`TodoWrite '{"todos":[{"content":"A","activeForm":"Doing A","status":"in_progress"},{"content":"B","activeForm":"Doing B","status":"completed"}]}'`, "Todo list updated: 1 completed, 1 in_progress, 0 pending")
	tt.waitUntil("the panel's tally", func() bool { return strings.Contains(tt.all(), "Tasks 1/3") })
	waitTitle("1/3 ▸ Doing A")
}
