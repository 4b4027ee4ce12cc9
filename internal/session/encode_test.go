package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/todo"
)

const hostile = "say \"hi\" \\ back\nnew\ttab\x01\x1f \u009b[31m \u2028\u2029 \xff\xfe é 🚀 </script>&"

// TestAppendVersionBytes pins the bytes of a todos.jsonl line (compared
// with testdata/encode/version.jsonl; TODO_SHELL_UPDATE_GOLDEN=1 writes it).
func TestAppendVersionBytes(t *testing.T) {
	snap := todo.Snapshot{
		Items:     []todo.Item{{Content: hostile, Status: "pending", ActiveForm: hostile}, {Content: "b", Status: "completed", ActiveForm: "B"}},
		UpdatedAt: time.Date(2026, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600)), Version: 42, ToolUseID: hostile,
	}
	got := AppendVersion([]byte("prefix:"), snap)
	got = append(append(got, '\n'), AppendVersion(nil, todo.Snapshot{Version: 1})...)
	path := filepath.Join("testdata", "encode", "version.jsonl")
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
		t.Errorf("AppendVersion wrote\n%s\nwant, byte for byte,\n%s", got, want)
	}
}
