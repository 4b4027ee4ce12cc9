package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// resumedNote says what a resumed session brought back, as the shell
// starts — what its panel shows: "resumed ID: 3 todos, 1 in progress; 2
// tasks, 1 in progress" (the tasks when it has any, and the conversation's
// messages in agent mode, messages >= 0); "resumed ID on plan NAME: …" when
// the shell is on the shared plan NAME (plan not ""), whose tasks those are;
// "" for a new session.
func resumedNote(s *session.Session, snap todo.Snapshot, tasks task.State, messages int, plan string) string {
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
	switch {
	case n > 0:
		note += fmt.Sprintf("%d %s, %d in progress", n, plural(n, "todo", "todos"), doing)
	case len(tasks.Tasks) == 0:
		note += "no todos"
	}
	if k := len(tasks.Tasks); k > 0 {
		active := 0
		for i := range tasks.Tasks {
			if tasks.Tasks[i].Status == task.StatusInProgress {
				active++
			}
		}
		if n > 0 {
			note += "; "
		}
		note += fmt.Sprintf("%d %s, %d in progress", k, plural(k, "task", "tasks"), active)
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
//
// A shell on a shared plan whose session left nothing (its tasks are the
// plan's, not the session's) says how to come back to the plan: "plan NAME
// kept · todo-shell --plan NAME" — when the plan holds a version to come
// back to.
func leftNote(o *Options, s *session.Session, saved bool, resume string) string {
	if s == nil || !saved {
		return planKeptNote(o, resume)
	}
	if fi, err := os.Stat(s.Path()); err != nil || !fi.IsDir() {
		return planKeptNote(o, resume)
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

// planKeptNote is "plan NAME kept · todo-shell --plan NAME" (resume the
// command, "todo-shell" or "todo-shell agent") for a shell on the shared
// plan NAME that holds a version; "" otherwise.
func planKeptNote(o *Options, resume string) string {
	name, err := planName(o)
	if err != nil || name == "" {
		return ""
	}
	dir, err := planDir(o, name)
	if err != nil {
		return ""
	}
	if fi, err := os.Lstat(filepath.Join(dir, task.JournalFile)); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return ""
	}
	return render.Sanitize(fmt.Sprintf("plan %s kept · %s --plan %s", name, resume, bashline.Quote(name)))
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
