package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// resumedNote says what a resumed session brought back, as the shell
// starts: "resumed ID: 3 todos, 1 in progress" (and the conversation's
// messages in agent mode, messages >= 0); "" for a new session.
func resumedNote(s *session.Session, snap todo.Snapshot, messages int) string {
	if !s.Resumed() {
		return ""
	}
	n, doing := len(snap.Items), 0
	for _, it := range snap.Items {
		if it.Status == todo.StatusInProgress {
			doing++
		}
	}
	note := fmt.Sprintf("resumed %s: ", render.Sanitize(s.ID()))
	if n == 0 {
		note += "no todos"
	} else {
		note += fmt.Sprintf("%d %s, %d in progress", n, plural(n, "todo", "todos"), doing)
	}
	if messages >= 0 {
		note += fmt.Sprintf(", %d %s of conversation", messages, plural(messages, "message", "messages"))
	}
	return note
}

// leftNote says, as the shell ends, which session it was and how to come
// back to it: "session ID saved · todo-shell --resume ID"; "" when the
// session left nothing on disk. resume is the command that resumes it.
func leftNote(s *session.Session, resume string) string {
	if s == nil {
		return ""
	}
	if fi, err := os.Stat(s.Path()); err != nil || !fi.IsDir() {
		return ""
	}
	id := render.Sanitize(s.ID())
	return fmt.Sprintf("session %s saved · %s --resume %s", id, resume, id)
}

// printNote prints a note on a line of its own; nothing for "".
func printNote(w io.Writer, note string) {
	if note != "" {
		fmt.Fprintln(w, note)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
