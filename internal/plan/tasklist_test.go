package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTaskList(t *testing.T) {
	v, skipped, err := ReadTaskList("testdata/claude-code-2.1.330_tasklist")
	if err != nil || skipped != 0 {
		t.Fatal(err, skipped)
	}
	if statuses(v.Todos) != "cc" || v.Todos[1].Content != "Write unit tests" || v.Info[0].Owner != "main" ||
		strings.Join(v.Info[1].BlockedBy, ",") != "1" || !v.Tasks {
		t.Fatalf("%+v", v)
	}
	// A planted symlink, a FIFO-like oddity and junk are skipped, not read.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "10.json"), []byte(`{"id":"10","subject":"Ten","status":"pending"}`), 0o600)
	os.WriteFile(filepath.Join(dir, "2.json"), []byte(`{"id":"2","subject":"Two","status":"in_progress","blockedBy":["10"]}`), 0o600)
	os.WriteFile(filepath.Join(dir, "3.json"), []byte(`not json`), 0o600)
	os.Symlink("/etc/passwd", filepath.Join(dir, "4.json"))
	os.Mkdir(filepath.Join(dir, "5.json"), 0o700)
	v, skipped, err = ReadTaskList(dir)
	if err != nil || skipped != 3 || len(v.Todos) != 2 || v.Todos[0].Content != "Two" || v.Todos[0].ActiveForm != "Two" {
		t.Fatalf("%+v skipped %d err %v", v, skipped, err)
	}
	if d := Display(v); d[0].Content != "#2 Two · blocked by #10" {
		t.Errorf("display %q", d[0].Content)
	}
	w, _, _ := ReadTaskList(dir)
	if !SameList(v, w) {
		t.Error("the same list read twice differs")
	}
}
