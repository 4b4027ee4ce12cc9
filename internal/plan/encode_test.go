package plan

import (
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestAppendRecordBytes pins the bytes of replay --json's records.
func TestAppendRecordBytes(t *testing.T) {
	t.Parallel()
	items := []todo.Item{{Content: golden.Hostile, Status: "in_progress", ActiveForm: golden.Hostile}, {Content: "b", Status: "pending", ActiveForm: "b"}}
	plain := &Version{N: 3, Time: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC), ToolUseID: golden.Hostile, Todos: items}
	golden.Encoded(t, "record_plain.json", AppendRecord([]byte("prefix:"), plain, Change{}, nil))
	tasks := &Version{N: -12, ToolUseID: "toolu_1", Todos: items, Info: []ItemInfo{
		{ID: "1", Owner: golden.Hostile, Description: golden.Hostile, Blocks: []string{"2", golden.Hostile}},
		{ID: "2", BlockedBy: []string{"1"}},
	}}
	c := Change{
		Added: []string{golden.Hostile, "x"}, Started: []string{"s"}, Completed: []string{golden.Hostile}, Dropped: []string{"d"},
		Pending: []string{golden.Hostile}, Renamed: []Rename{{From: golden.Hostile, To: "to", ID: "1"}, {From: "a", To: golden.Hostile}},
		Notes: []string{"#2 blocked by #1", golden.Hostile},
	}
	golden.Encoded(t, "record_tasks.json", AppendRecord(nil, tasks, c, []string{golden.Hostile, "two in progress"}))
}
