package todo

import (
	"path/filepath"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// goldenFile compares got with testdata/encode/name, byte for byte.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "encode", name), got)
}

// TestAppendListBytes pins the bytes TodoRead and the session files write.
func TestAppendListBytes(t *testing.T) {
	items := []Item{
		{Content: "Plain", Status: StatusPending, ActiveForm: "Planing"},
		{Content: golden.Hostile, Status: StatusInProgress, ActiveForm: golden.Hostile},
		{Content: "", Status: StatusCompleted, ActiveForm: ""},
	}
	goldenFile(t, "list.json", AppendList([]byte("prefix:"), items))
	goldenFile(t, "list_empty.json", AppendList(nil, nil))
}
