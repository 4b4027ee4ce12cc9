package todo

import (
	"os"
	"path/filepath"
	"testing"
)

// hostile is text every encoder must write exactly as before: quotes,
// backslashes, controls, C1 controls, line separators, invalid UTF-8.
const hostile = "say \"hi\" \\ back\nnew\ttab\x01\x1f \u009b[31m \u2028\u2029 \xff\xfe é 🚀 </script>&"

// golden compares got with testdata/encode/name, byte for byte; with
// TODO_SHELL_UPDATE_GOLDEN=1 it writes the file instead (done once, with
// the encoders before they were merged into one).
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

// TestAppendListBytes pins the bytes TodoRead and the session files write.
func TestAppendListBytes(t *testing.T) {
	items := []Item{
		{Content: "Plain", Status: StatusPending, ActiveForm: "Planing"},
		{Content: hostile, Status: StatusInProgress, ActiveForm: hostile},
		{Content: "", Status: StatusCompleted, ActiveForm: ""},
	}
	golden(t, "list.json", AppendList([]byte("prefix:"), items))
	golden(t, "list_empty.json", AppendList(nil, nil))
}
