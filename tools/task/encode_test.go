package task

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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

// TestAppendTaskBytes pins the bytes of a task and of the plan's snapshot.
func TestAppendTaskBytes(t *testing.T) {
	full := Task{
		ID: "7", Subject: hostile, Description: hostile, ActiveForm: "Doing " + hostile, Status: "in_progress",
		Owner: hostile, Blocks: []string{"8", hostile}, BlockedBy: []string{"1"},
		Metadata: Metadata{{Key: hostile, Value: json.RawMessage(`{"a":[1,2]}`)}, {Key: "n", Value: json.RawMessage(`3`)}},
	}
	bare := Task{ID: "1", Subject: "Bare", Status: "pending"}
	golden(t, "task_full.json", AppendTask([]byte("prefix:"), full))
	golden(t, "task_bare.json", AppendTask(nil, bare))
	st := &State{Tasks: []Task{bare, full}, NextID: 9, Version: 12}
	golden(t, "snapshot.json", appendSnapshot(nil, st, 4096))
	golden(t, "snapshot_empty.json", appendSnapshot(nil, &State{NextID: 1}, 0))
}
