package todo

import (
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// TestAppendListBytes pins the bytes TodoRead and the session files write.
func TestAppendListBytes(t *testing.T) {
	items := []Item{
		{Content: "Plain", Status: StatusPending, ActiveForm: "Planing"},
		{Content: golden.Hostile, Status: StatusInProgress, ActiveForm: golden.Hostile},
		{Content: "", Status: StatusCompleted, ActiveForm: ""},
	}
	golden.Encoded(t, "list.json", AppendList([]byte("prefix:"), items))
	golden.Encoded(t, "list_empty.json", AppendList(nil, nil))
}
