package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadTaskList(t *testing.T) {
	t.Parallel()
	v, skipped, err := ReadTaskList("testdata/claude-code-2.1.330_tasklist")
	if err != nil || len(skipped) != 0 {
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
	base := filepath.Base(dir)
	v, skipped, err = ReadTaskList(dir)
	if err != nil || strings.Join(skipped, "\n") != base+": 1 file(s) skipped: not a task\n"+base+": 1 file(s) skipped: not a regular file (a symbolic link)\n"+base+": 1 file(s) skipped: not a regular file (a directory)" ||
		len(v.Todos) != 2 || v.Todos[0].Content != "Two" || v.Todos[0].ActiveForm != "Two" {
		t.Fatalf("%+v skipped %q err %v", v, skipped, err)
	}
	if d := Display(v); d[0].Content != "#2 Two · blocked by #10" {
		t.Errorf("display %q", d[0].Content)
	}
	w, _, _ := ReadTaskList(dir)
	if !SameList(v, w) {
		t.Error("the same list read twice differs")
	}
}

// TestTaskListBudget: one read of a task list takes at most its budget:
// 100 hard links to one 16 MiB task file (2.32 GB read before) are one
// file, over the cap of one task file; 100 hard links to a good task are
// one task; files past the list's bytes are skipped and counted; memory
// stays within the budget.
func TestTaskListBudget(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(t.TempDir(), "big")
	os.WriteFile(big, []byte(`{"id":"1","subject":"`+strings.Repeat("x", 16<<20)+`","status":"pending"}`), 0o600)
	good := filepath.Join(t.TempDir(), "good")
	os.WriteFile(good, []byte(`{"id":"7","subject":"Seven","status":"pending"}`), 0o600)
	for i := 0; i < 100; i++ {
		if err := os.Link(big, filepath.Join(dir, fmt.Sprintf("%d.json", 100+i))); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(good, filepath.Join(dir, fmt.Sprintf("%d.json", 300+i))); err != nil {
			t.Fatal(err)
		}
	}
	// 20 more files of 900 KiB each: 16 fit the list's 16 MiB.
	for i := 0; i < 20; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", 500+i)), []byte(fmt.Sprintf(`{"id":"%d","subject":"%s","status":"pending"}`, 500+i, strings.Repeat("y", 900<<10))), 0o600)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, skipped, err := ReadTaskList(dir)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(skipped, "\n")
	for _, want := range []string{"198 file(s) skipped: a hard link to a file already read", "1 file(s) skipped: over 1 MiB", "file(s) skipped: past what one read takes"} {
		if !strings.Contains(got, want) {
			t.Errorf("skipped %q, want %q", got, want)
		}
	}
	if n := len(v.Todos); n != 19 { // Seven and 18 of the 900 KiB ones
		t.Errorf("%d tasks", n)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("%d MiB allocated", grew>>20)
	}
}
