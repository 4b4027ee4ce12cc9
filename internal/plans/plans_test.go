package plans

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/task"
)

// newPlan makes the plan name in root with one task in progress, owned by
// bob, as a TaskCreate and a TaskUpdate would.
func newPlan(t *testing.T, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	line := `{"version":1,"time":"2026-11-28T08:57:09Z","tool_use_id":"toolu_2","tool":"TaskCreate","input":{},"set":[{"id":"1","subject":"Build","description":"d","activeForm":"Building","status":"in_progress","owner":"bob","blocks":[],"blockedBy":[]}],"next_id":2}` + "\n"
	for name, data := range map[string]string{task.JournalFile: line, task.LockFile: ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestUseReleaseLeavesNoEmptyPlan: a process that used a plan without
// changing it leaves nothing behind; one that changed it leaves it; a plan
// another process uses stays.
func TestUseReleaseLeavesNoEmptyPlan(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "empty")
	h, err := Use(dir)
	if err != nil {
		t.Fatal(err)
	}
	if info, ok := Stat(dir); !ok || !info.InUse {
		t.Fatalf("%+v %v", info, ok)
	}
	other, err := Use(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal("removed while another process uses it")
	}
	if err := other.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an empty plan left behind: %v", err)
	}
	kept := newPlan(t, root, "kept")
	h, _ = Use(kept)
	h.Release()
	if info, ok := Stat(kept); !ok || info.Version != 1 || info.InUse {
		t.Fatalf("%+v %v", info, ok)
	}
}

// TestListAndClean: List sums each plan up; Clean removes the old ones no
// process uses, and says why it left one in use.
func TestListAndClean(t *testing.T) {
	root := t.TempDir()
	old, busy := newPlan(t, root, "old"), newPlan(t, root, "busy")
	newPlan(t, root, "new")
	then := time.Now().Add(-48 * time.Hour)
	for _, d := range []string{old, busy} {
		for _, f := range []string{"", task.JournalFile, task.LockFile, task.SnapshotFile} {
			os.Chtimes(filepath.Join(d, f), then, then)
		}
	}
	h, err := Use(busy)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	list, err := List(root)
	if err != nil || len(list) != 3 || list[0].Name != "new" {
		t.Fatalf("%+v %v", list, err)
	}
	for _, p := range list {
		if p.Total != 1 || p.InProgress != "Building" || p.Owner != "bob" || p.InUse != (p.Name == "busy") {
			t.Errorf("%+v", p)
		}
	}
	got, err := Clean(root, time.Now().Add(-24*time.Hour), false)
	if err != nil || len(got) != 2 {
		t.Fatalf("%+v %v", got, err)
	}
	for _, r := range got {
		switch r.Name {
		case "old":
			if r.Skipped != "" || r.Err != nil {
				t.Errorf("%+v", r)
			}
		case "busy":
			if r.Skipped != ErrInUse.Error() {
				t.Errorf("%+v", r)
			}
		}
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("old plan not removed")
	}
	if err := Remove(busy); !errors.Is(err, ErrInUse) {
		t.Fatalf("a plan in use removed: %v", err)
	}
}

// TestUseAfterRemoval: a plan removed while a process waits to use it is
// made anew for it.
func TestUseAfterRemoval(t *testing.T) {
	dir := newPlan(t, t.TempDir(), "p")
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	h, err := Use(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	if !same(h.f, dir) {
		t.Fatal("holding a removed directory")
	}
}
