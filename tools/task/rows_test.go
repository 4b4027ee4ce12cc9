package task

import (
	"reflect"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestRows was render's TestTaskItems: the rows moved to the engine.
func TestRows(t *testing.T) {
	t.Parallel()
	st := State{Tasks: []Task{
		{ID: "1", Subject: "Read", Status: StatusCompleted, Blocks: []string{"2"}},
		{ID: "2", Subject: "Write", ActiveForm: "Writing", Status: StatusInProgress, Owner: "bob", BlockedBy: []string{"1"}},
		{ID: "3", Subject: "Test", Status: StatusPending, BlockedBy: []string{"2"}},
	}}
	want := []todo.Item{
		{Content: "#1 Read", Status: "completed", ActiveForm: "#1 Read"},
		{Content: "#2 Write @bob", Status: "in_progress", ActiveForm: "#2 Writing @bob"},
		{Content: "#3 Test ⊘ blocked by #2", Status: "pending", ActiveForm: "#3 Test ⊘ blocked by #2"},
	}
	if got := Rows(st); !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v", got)
	}
}
