package session

import (
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestAppendVersionBytes pins the bytes of a todos.jsonl line (compared
// with testdata/encode/version.jsonl; TODO_SHELL_UPDATE_GOLDEN=1 writes it).
func TestAppendVersionBytes(t *testing.T) {
	t.Parallel()
	snap := todo.Snapshot{
		Items:     []todo.Item{{Content: golden.Hostile, Status: "pending", ActiveForm: golden.Hostile}, {Content: "b", Status: "completed", ActiveForm: "B"}},
		UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600)), Version: 42, ToolUseID: golden.Hostile,
	}
	got := AppendVersion([]byte("prefix:"), snap)
	got = append(append(got, '\n'), AppendVersion(nil, todo.Snapshot{Version: 1})...)
	golden.Encoded(t, "version.jsonl", got)
}
