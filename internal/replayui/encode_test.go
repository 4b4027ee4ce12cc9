package replayui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

const hostile = "say \"hi\" \\ back\nnew\ttab\x01\x1f \u009b[31m \u2028\u2029 \xff\xfe é 🚀 </script>&"

// TestAppendTaskLineBytes pins the bytes of the todos.jsonl line a task
// plan's version is replayed as (compared with testdata/encode/
// task_line.jsonl; TODO_SHELL_UPDATE_GOLDEN=1 writes it).
func TestAppendTaskLineBytes(t *testing.T) {
	st := task.State{Version: 5, NextID: 3, Tasks: []task.Task{
		{ID: "1", Subject: hostile, Status: "completed", Owner: hostile, Description: hostile, Blocks: []string{"2"}},
		{ID: "2", Subject: "b", Status: "pending", BlockedBy: []string{"1", hostile}},
	}}
	rec := task.Record{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ToolUseID: hostile}
	items := []todo.Item{{Content: "#1 " + hostile, Status: "completed", ActiveForm: "#1 " + hostile}, {Content: "#2 b", Status: "pending", ActiveForm: "#2 b"}}
	got := appendTaskLine([]byte("prefix:"), st, rec, items)
	got = appendTaskLine(got, task.State{}, task.Record{}, nil)
	path := filepath.Join("testdata", "encode", "task_line.jsonl")
	if os.Getenv("TODO_SHELL_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("appendTaskLine wrote\n%s\nwant, byte for byte,\n%s", got, want)
	}
}
