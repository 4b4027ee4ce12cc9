package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// resumedNote says what a resumed session brought back, as the shell
// starts: "resumed ID: 3 todos, 1 in progress" (and the conversation's
// messages in agent mode, messages >= 0); "resumed ID on plan NAME: …" when
// the shell is on the shared plan NAME (plan not ""), whose tasks those are;
// "" for a new session.
func resumedNote(s *session.Session, snap todo.Snapshot, messages int, plan string) string {
	if !s.Resumed() {
		return ""
	}
	n, doing := len(snap.Items), 0
	for _, it := range snap.Items {
		if it.Status == todo.StatusInProgress {
			doing++
		}
	}
	note := "resumed " + render.Sanitize(s.ID())
	if plan != "" {
		note += " on plan " + render.Sanitize(plan)
	}
	note += ": "
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
// back to it, from any directory: "session ID saved · cd DIR && todo-shell
// --resume ID", DIR the directory todo-shell was started in (where its
// commands ran first and where the default offload directory is), and
// --offload-dir when the session is in another one; "" when the session
// left nothing on disk or could not be saved (saved false). resume is the
// command that resumes it; o gives the flags it needs besides: --plan NAME
// for a shell on a shared plan (without it, the resumed shell would not
// see its tasks).
func leftNote(o *Options, s *session.Session, saved bool, resume string) string {
	if s == nil || !saved {
		return ""
	}
	if fi, err := os.Stat(s.Path()); err != nil || !fi.IsDir() {
		return ""
	}
	id := render.Sanitize(s.ID())
	cmd := fmt.Sprintf("%s --resume %s", resume, id)
	if name, err := planName(o); err == nil && name != "" {
		cmd += " --plan " + bashline.Quote(name)
	}
	if wd, err := os.Getwd(); err == nil {
		if off := filepath.Dir(s.Path()); off != filepath.Join(wd, ".offload") {
			cmd += " --offload-dir " + bashline.Quote(off)
		}
		cmd = "cd " + bashline.Quote(wd) + " && " + cmd
	}
	return fmt.Sprintf("session %s saved · %s", id, render.Sanitize(cmd))
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
