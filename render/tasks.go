package render

import (
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TaskLine is one task of a task plan as the panel shows it: its id, its
// subject (activeForm, when it has one, while in progress), its owner and
// what it still waits for — "#3 Write the tests @bob ⊘ blocked by #2". The
// text is not sanitized: the task box does that when it draws it.
func TaskLine(st task.State, t task.Task) (content, active string) {
	var tail strings.Builder
	if t.Owner != "" {
		tail.WriteString(" @" + t.Owner)
	}
	if open := st.OpenBlockers(t); len(open) > 0 && t.Status != task.StatusCompleted {
		tail.WriteString(" ⊘ blocked by #" + strings.Join(open, ", #"))
	}
	active = t.ActiveForm
	if active == "" {
		active = t.Subject
	}
	return "#" + t.ID + " " + t.Subject + tail.String(), "#" + t.ID + " " + active + tail.String()
}

// TaskItems returns the plan's tasks as rows of the task box, in id order,
// so one box (and its collapsing) shows todos and tasks alike.
func TaskItems(st task.State) []todo.Item {
	items := make([]todo.Item, len(st.Tasks))
	for i := range st.Tasks {
		t := &st.Tasks[i]
		content, active := TaskLine(st, *t)
		status := todo.StatusPending
		switch t.Status {
		case task.StatusInProgress:
			status = todo.StatusInProgress
		case task.StatusCompleted:
			status = todo.StatusCompleted
		}
		items[i] = todo.Item{Content: content, Status: status, ActiveForm: active}
	}
	return items
}

// PlainTasks draws a task plan as TodoRead prints it after the list, in
// Plain's form: each task's id and subject, the activeForm of one in
// progress (when it says something else), its owner and what it still
// waits for, then the count:
//
//	[x] #1 Read the spec
//	[>] #2 Write <- Writing @bob
//	[ ] #3 Test ⊘ blocked by #2
//
//	(1/3 completed)
//
// Text is neutralised by Sanitize.
func PlainTasks(st task.State) string {
	var b strings.Builder
	done := 0
	for i := range st.Tasks {
		t := &st.Tasks[i]
		mark := "[ ] "
		switch t.Status {
		case task.StatusCompleted:
			mark = "[x] "
			done++
		case task.StatusInProgress:
			mark = "[>] "
		}
		b.WriteString(mark + "#" + Sanitize(t.ID) + " " + Sanitize(t.Subject))
		if t.Status == task.StatusInProgress && t.ActiveForm != "" && t.ActiveForm != t.Subject {
			b.WriteString(" <- " + Sanitize(t.ActiveForm))
		}
		if t.Owner != "" {
			b.WriteString(" @" + Sanitize(t.Owner))
		}
		if open := st.OpenBlockers(*t); len(open) > 0 && t.Status != task.StatusCompleted {
			b.WriteString(" ⊘ blocked by #" + Sanitize(strings.Join(open, ", #")))
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n(" + strconv.Itoa(done) + "/" + strconv.Itoa(len(st.Tasks)) + " completed)")
	return b.String()
}
