package cmd

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/todo-shell/todo-shell/internal/session"
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
	if got := resumedNote(first, todo.Snapshot{}, -1, "team"); got != "" {
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
	for _, tc := range []struct {
		name     string
		messages int
		plan     string
		want     string
	}{
		{"no plan", -1, "", "resumed s1: 2 todos, 1 in progress"},
		{"plan", -1, "team", "resumed s1 on plan team: 2 todos, 1 in progress"},
		{"plan in agent mode", 4, "team", "resumed s1 on plan team: 2 todos, 1 in progress, 4 messages of conversation"},
		{"plan name neutralised", -1, "te\x1b]0;x\x07am", "resumed s1 on plan te␛]0;x␇am: 2 todos, 1 in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resumedNote(s, snap, tc.messages, tc.plan); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
