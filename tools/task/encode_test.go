package task

import (
	"encoding/json"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// TestAppendTaskBytes pins the bytes of a task and of the plan's snapshot.
func TestAppendTaskBytes(t *testing.T) {
	t.Parallel()
	full := Task{
		ID: "7", Subject: golden.Hostile, Description: golden.Hostile, ActiveForm: "Doing " + golden.Hostile, Status: "in_progress",
		Owner: golden.Hostile, Blocks: []string{"8", golden.Hostile}, BlockedBy: []string{"1"},
		Metadata: Metadata{{Key: golden.Hostile, Value: json.RawMessage(`{"a":[1,2]}`)}, {Key: "n", Value: json.RawMessage(`3`)}},
	}
	bare := Task{ID: "1", Subject: "Bare", Status: "pending"}
	golden.Encoded(t, "task_full.json", AppendTask([]byte("prefix:"), full))
	golden.Encoded(t, "task_bare.json", AppendTask(nil, bare))
	st := &State{Tasks: []Task{bare, full}, NextID: 9, Version: 12}
	golden.Encoded(t, "snapshot.json", appendSnapshot(nil, st, 4096))
	golden.Encoded(t, "snapshot_empty.json", appendSnapshot(nil, &State{NextID: 1}, 0))
}
