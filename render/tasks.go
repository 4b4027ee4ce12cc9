package render

import (
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

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

// PlainPlan is TodoRead's list as a person at a shell reads it: Plain,
// then the task plan's tasks (PlainTasks) when it has any.
func PlainPlan(snap todo.Snapshot, st task.State) string {
	text := Plain(snap)
	if len(st.Tasks) == 0 {
		return text
	}
	tasks := PlainTasks(st)
	if len(snap.Items) == 0 {
		return tasks
	}
	return text + "\n\nTasks:\n" + tasks
}
