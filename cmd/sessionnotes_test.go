package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestResumedNoteNamesThePlan: the note a resumed session starts with
// names the shared plan the shell is on (--plan NAME), whose tasks it
// counts; without a plan it is as before, and a new session has none.
func TestResumedNoteNamesThePlan(t *testing.T) {
	dir := t.TempDir()
	first, err := session.Open(dir, "s1", session.Options{Mode: session.ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	if got := resumedNote(first, todo.Snapshot{}, task.State{}, -1, "team"); got != "" {
		t.Errorf("a new session's note %q, want none", got)
	}
	// Something to come back to (an empty session is removed on Close).
	if err := os.WriteFile(filepath.Join(first.Path(), "result.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(dir, "s1", session.Options{Mode: session.ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snap := todo.Snapshot{Items: []todo.Item{{Content: "a", Status: todo.StatusInProgress}, {Content: "b", Status: todo.StatusPending}}}
	tasks := task.State{Tasks: []task.Task{{ID: "1", Status: task.StatusCompleted}, {ID: "2", Status: task.StatusInProgress}, {ID: "3", Status: task.StatusPending}}}
	for _, tc := range []struct {
		name     string
		snap     todo.Snapshot
		tasks    task.State
		messages int
		plan     string
		want     string
	}{
		{"no plan", snap, task.State{}, -1, "", "resumed s1: 2 todos, 1 in progress"},
		{"plan", snap, task.State{}, -1, "team", "resumed s1 on plan team: 2 todos, 1 in progress"},
		{"plan in agent mode", snap, task.State{}, 4, "team", "resumed s1 on plan team: 2 todos, 1 in progress, 4 messages of conversation"},
		{"plan name neutralised", snap, task.State{}, -1, "te\x1b]0;x\x07am", "resumed s1 on plan te␛]0;x␇am: 2 todos, 1 in progress"},
		// Issue 29, item 7: what the panel shows, the tasks too.
		{"todos and tasks", snap, tasks, -1, "", "resumed s1: 2 todos, 1 in progress; 3 tasks, 1 in progress"},
		{"tasks only", todo.Snapshot{}, tasks, -1, "", "resumed s1: 3 tasks, 1 in progress"},
		{"nothing", todo.Snapshot{}, task.State{}, -1, "", "resumed s1: no todos"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resumedNote(s, tc.snap, tc.tasks, tc.messages, tc.plan); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
