package replayui

import (
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestAppendTaskLineBytes pins the bytes of the todos.jsonl line a task
// plan's version is replayed as (compared with testdata/encode/
// task_line.jsonl; TODO_SHELL_UPDATE_GOLDEN=1 writes it).
func TestAppendTaskLineBytes(t *testing.T) {
	st := task.State{Version: 5, NextID: 3, Tasks: []task.Task{
		{ID: "1", Subject: golden.Hostile, Status: "completed", Owner: golden.Hostile, Description: golden.Hostile, Blocks: []string{"2"}},
		{ID: "2", Subject: "b", Status: "pending", BlockedBy: []string{"1", golden.Hostile}},
	}}
	rec := task.Record{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ToolUseID: golden.Hostile}
	items := []todo.Item{{Content: "#1 " + golden.Hostile, Status: "completed", ActiveForm: "#1 " + golden.Hostile}, {Content: "#2 b", Status: "pending", ActiveForm: "#2 b"}}
	got := appendTaskLine([]byte("prefix:"), st, rec, items)
	got = appendTaskLine(got, task.State{}, task.Record{}, nil)
	golden.Encoded(t, "task_line.jsonl", got)
}
