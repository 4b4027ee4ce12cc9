package task

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// goldenFile compares got with testdata/encode/name, byte for byte.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "encode", name), got)
}

// TestAppendTaskBytes pins the bytes of a task and of the plan's snapshot.
func TestAppendTaskBytes(t *testing.T) {
	full := Task{
		ID: "7", Subject: golden.Hostile, Description: golden.Hostile, ActiveForm: "Doing " + golden.Hostile, Status: "in_progress",
		Owner: golden.Hostile, Blocks: []string{"8", golden.Hostile}, BlockedBy: []string{"1"},
		Metadata: Metadata{{Key: golden.Hostile, Value: json.RawMessage(`{"a":[1,2]}`)}, {Key: "n", Value: json.RawMessage(`3`)}},
	}
	bare := Task{ID: "1", Subject: "Bare", Status: "pending"}
	goldenFile(t, "task_full.json", AppendTask([]byte("prefix:"), full))
	goldenFile(t, "task_bare.json", AppendTask(nil, bare))
	st := &State{Tasks: []Task{bare, full}, NextID: 9, Version: 12}
	goldenFile(t, "snapshot.json", appendSnapshot(nil, st, 4096))
	goldenFile(t, "snapshot_empty.json", appendSnapshot(nil, &State{NextID: 1}, 0))
}
