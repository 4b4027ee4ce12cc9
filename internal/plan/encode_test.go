package plan

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/todo"
)

const hostile = "say \"hi\" \\ back\nnew\ttab\x01\x1f \u009b[31m \u2028\u2029 \xff\xfe é 🚀 </script>&"

// golden compares got with testdata/encode/name, byte for byte (see
// tools/todo's golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "encode", name)
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
		t.Errorf("%s: the encoder wrote\n%s\nwant, byte for byte,\n%s", name, got, want)
	}
}

// TestAppendRecordBytes pins the bytes of replay --json's records.
func TestAppendRecordBytes(t *testing.T) {
	items := []todo.Item{{Content: hostile, Status: "in_progress", ActiveForm: hostile}, {Content: "b", Status: "pending", ActiveForm: "b"}}
	plain := &Version{N: 3, Time: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC), ToolUseID: hostile, Todos: items}
	golden(t, "record_plain.json", AppendRecord([]byte("prefix:"), plain, Change{}, nil))
	tasks := &Version{N: -12, ToolUseID: "toolu_1", Todos: items, Info: []ItemInfo{
		{ID: "1", Owner: hostile, Description: hostile, Blocks: []string{"2", hostile}},
		{ID: "2", BlockedBy: []string{"1"}},
	}}
	c := Change{
		Added: []string{hostile, "x"}, Started: []string{"s"}, Completed: []string{hostile}, Dropped: []string{"d"},
		Pending: []string{hostile}, Renamed: []Rename{{From: hostile, To: "to", ID: "1"}, {From: "a", To: hostile}},
		Notes: []string{"#2 blocked by #1", hostile},
	}
	golden(t, "record_tasks.json", AppendRecord(nil, tasks, c, []string{hostile, "two in progress"}))
}
