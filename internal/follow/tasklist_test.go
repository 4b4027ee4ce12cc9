package follow

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTaskListSharedByProcesses follows a task list that does not exist
// yet, then changes written to it as two sessions sharing it would: a task
// each, an owner claiming one, a blocker.
func TestTaskListSharedByProcesses(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "tasks", "team-list")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	done := make(chan error, 1)
	go func() { done <- Follow(ctx, TaskList{Dir: dir}, func(u Update) { updates <- u }) }()
	next := func(want string) Update {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case u := <-updates:
				if statuses(u) == want {
					return u
				}
			case <-deadline:
				t.Fatalf("never saw %q", want)
			}
		}
	}
	next("-")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(filepath.Join(dir, ".lock"), nil, 0o600)
	os.WriteFile(filepath.Join(dir, "1.json"), []byte(`{"id":"1","subject":"Write the parser","status":"pending","blocks":[],"blockedBy":[]}`), 0o600)
	next("p")
	os.WriteFile(filepath.Join(dir, "2.json"), []byte(`{"id":"2","subject":"Write tests","status":"pending","blocks":[],"blockedBy":["1"]}`), 0o600)
	next("pp")
	os.WriteFile(filepath.Join(dir, "1.json"), []byte(`{"id":"1","subject":"Write the parser","activeForm":"Writing the parser","status":"in_progress","owner":"alice","blocks":["2"],"blockedBy":[]}`), 0o600)
	u := next("ip")
	if u.Version.Info[0].Owner != "alice" || u.Version.OpenBlockers(1)[0] != "1" {
		t.Errorf("%+v", u.Version.Info)
	}
	os.Remove(filepath.Join(dir, "2.json"))
	next("i")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	u, err := Once(TaskList{Dir: dir})
	if err != nil || statuses(u) != "i" {
		t.Fatalf("%+v %v", u, err)
	}
}
