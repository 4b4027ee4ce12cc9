package task

import (
	"strings"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// Line is one task of a plan as a row of the panel reads: its id, its
// subject (activeForm, when it has one, while in progress), its owner and
// what it still waits for — "#3 Write the tests @bob ⊘ blocked by #2". The
// text is the plan's own, not neutralised: the view that draws it does that.
func Line(st State, t Task) (content, active string) {
	var tail strings.Builder
	if t.Owner != "" {
		tail.WriteString(" @" + t.Owner)
	}
	if open := st.OpenBlockers(t); len(open) > 0 && t.Status != StatusCompleted {
		tail.WriteString(" ⊘ blocked by #" + strings.Join(open, ", #"))
	}
	active = t.ActiveForm
	if active == "" {
		active = t.Subject
	}
	return "#" + t.ID + " " + t.Subject + tail.String(), "#" + t.ID + " " + active + tail.String()
}

// Rows returns the plan's tasks as rows of a todo list, in id order, so
// one panel (and its collapsing) shows todos and tasks alike.
func Rows(st State) []todo.Item {
	items := make([]todo.Item, len(st.Tasks))
	for i := range st.Tasks {
		t := &st.Tasks[i]
		content, active := Line(st, *t)
		status := todo.StatusPending
		switch t.Status {
		case StatusInProgress:
			status = todo.StatusInProgress
		case StatusCompleted:
			status = todo.StatusCompleted
		}
		items[i] = todo.Item{Content: content, Status: status, ActiveForm: active}
	}
	return items
}
