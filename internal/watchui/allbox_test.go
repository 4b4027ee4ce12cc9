package watchui

import (
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/allplans"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestAllBox: an entry of `watch --all` is drawn as its box (the agent,
// the project, done/total, the item in progress), and every text from the
// files — agent, session, project, item — is neutralised here, where it is
// drawn: allplans hands them on as they are.
func TestAllBox(t *testing.T) {
	now := time.Now()
	st := render.PlainStyles()
	items := []todo.Item{
		{Content: "Read", ActiveForm: "Reading", Status: todo.StatusPending},
		{Content: "Write", ActiveForm: "Write the parser", Status: todo.StatusInProgress},
		{Content: "Test", ActiveForm: "Testing", Status: todo.StatusPending},
	}
	e := allplans.Entry{Agent: "Gemini CLI", Project: "/src/gem", Version: &plan.Version{N: 1, Todos: items}, Changed: now}
	box := allBox(&e, 60, now, true, &st)
	if !strings.Contains(box, "Gemini CLI · /src/gem · ") || !strings.Contains(box, "0/3") || !strings.Contains(box, "● Write the parser") {
		t.Errorf("box\n%s", box)
	}

	hostile := allplans.Entry{
		Agent: "todo-shell\x1b]0;owned\x07", Session: "s\x1b[31m", Project: "/src/\x1b[2J\u202eevil",
		Version: &plan.Version{N: 1, Todos: []todo.Item{{Content: "x", ActiveForm: "do \x1b]52;c;AAAA\x07 it\r\nnow", Status: todo.StatusInProgress}}},
		Changed: now,
	}
	for _, width := range []int{100, 40} {
		box := allBox(&hostile, width, now, false, &st)
		screen := allBoxes([]allplans.Entry{hostile}, "opencode.db damaged: \x1b[2Jgone", 0, width, 10, now, &st)
		for _, s := range []string{box, screen} {
			if strings.ContainsAny(s, "\x1b\x07\r\u202e") {
				t.Fatalf("width %d: raw control in\n%q", width, s)
			}
		}
		if !strings.Contains(box, "␛") {
			t.Errorf("width %d: the escapes are not shown: %q", width, box)
		}
		if rows := strings.Split(screen, "\n"); len(rows) < 2 || !strings.HasPrefix(rows[1], "⚠ opencode.db damaged: ␛[2J") {
			t.Errorf("width %d: the warning is not under the header:\n%s", width, screen)
		}
	}
}
