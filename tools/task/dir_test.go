package task

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// The fault helpers run in a child copy of the test binary.
const helperEnv = "TODO_SHELL_TASK_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "hold-lock-mid-update":
		helperMidUpdate(os.Args[len(os.Args)-1])
	case "update-forever":
		helperForever(os.Args[len(os.Args)-1])
	}
	os.Exit(2)
}

// helperMidUpdate takes the plan's lock, writes half a journal line, says so
// and waits to be killed.
func helperMidUpdate(dir string) {
	s, err := OpenStore(dir, nil)
	if err != nil {
		panic(err)
	}
	if err := s.dir.lock(); err != nil {
		panic(err)
	}
	if _, err := s.dir.journal.Write([]byte(`{"version":99,"time":"2026-01-01T00:00:00Z","tool":"TaskCre`)); err != nil {
		panic(err)
	}
	fmt.Println("mid-update")
	// Wait to be killed. Not select {}: with no other goroutine the
	// runtime ends the process ("all goroutines are asleep"), which frees
	// the lock before the test looks at it; a sleeping goroutine is not
	// asleep to the runtime.
	for {
		time.Sleep(time.Hour)
	}
}

// helperForever makes updates until killed, printing each version.
func helperForever(dir string) {
	reg, s := tools.NewRegistry(), mustOpen(dir)
	if err := Register(reg, s, Options{Limits: todo.Limits{MaxItems: 1_000_000, MaxContentLength: 200}}); err != nil {
		panic(err)
	}
	for i := 0; ; i++ {
		in := fmt.Sprintf(`{"subject":"task %d","description":"%s"}`, i, strings.Repeat("x", i%500))
		if i%3 == 2 {
			in = fmt.Sprintf(`{"taskId":"%d","status":"completed","metadata":{"n":%d}}`, i/2, i)
		}
		name := CreateName
		if i%3 == 2 {
			name = UpdateName
		}
		res := reg.Execute(context.Background(), "toolu_h", name, json.RawMessage(in))
		fmt.Println(res.Content)
	}
}

func mustOpen(dir string) *Store {
	s, err := OpenStore(dir, nil)
	if err != nil {
		panic(err)
	}
	return s
}

func openTools(t *testing.T, dir string, caller string) (*tools.Registry, *Store) {
	t.Helper()
	s, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	reg := tools.NewRegistry()
	if err := Register(reg, s, Options{Limits: todo.Limits{MaxItems: 100_000, MaxContentLength: 200}, Caller: caller}); err != nil {
		t.Fatal(err)
	}
	return reg, s
}

func call(t *testing.T, reg *tools.Registry, name, input string) tools.ToolResult {
	t.Helper()
	return reg.Execute(context.Background(), "toolu_t", name, json.RawMessage(input))
}

func TestSharedPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, sa := openTools(t, dir, "alice")
	b, sb := openTools(t, dir, "bob")
	if got := call(t, a, CreateName, `{"subject":"one","description":""}`).Content; got != "Task #1 created successfully: one" {
		t.Fatal(got)
	}
	if got := call(t, b, CreateName, `{"subject":"two","description":""}`).Content; got != "Task #2 created successfully: two" {
		t.Fatal(got)
	}
	if got := call(t, b, UpdateName, `{"taskId":"1","status":"in_progress"}`).Content; got != "Updated task #1 status, owner" {
		t.Fatal(got)
	}
	if got := call(t, a, UpdateName, `{"taskId":"1","owner":"alice"}`); !got.IsError || got.Content != "Task #1 is owned by bob" {
		t.Fatal(got)
	}
	if got := call(t, a, ListName, `{}`).Content; got != "#1 [in_progress] one (owner: bob)\n#2 [pending] two (free)" {
		t.Fatal(got)
	}
	if !reflect.DeepEqual(sa.Snapshot(), sb.Snapshot()) {
		t.Fatal("the two stores disagree")
	}
	// The snapshot file holds the last version; a new reader agrees.
	var doc snapshotDoc
	b1, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
	if err := json.Unmarshal(b1, &doc); err != nil || doc.Version != 3 || len(doc.Tasks) != 2 || doc.NextID != 3 {
		t.Fatalf("%s: %v", b1, err)
	}
	st, err := ReadDir(dir, nil)
	if err != nil || !reflect.DeepEqual(st, sa.Snapshot()) {
		t.Fatalf("ReadDir %+v, %v", st, err)
	}
}

// TestConcurrentStores: several stores on one plan, changing it at once,
// lose nothing: versions are dense, ids unique, and the final plan is the
// serial replay of the journal's inputs.
func TestConcurrentStores(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const stores, calls = 4, 60
	var wg sync.WaitGroup
	accepted := make([]int, stores)
	for i := range stores {
		reg, _ := openTools(t, dir, fmt.Sprint("agent", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range calls {
				in, name := fmt.Sprintf(`{"subject":"s%d-%d","description":""}`, i, j), CreateName
				if j%2 == 1 {
					in, name = fmt.Sprintf(`{"taskId":"%d","status":"in_progress","metadata":{"by%d":%d}}`, j/2+1, i, j), UpdateName
				}
				res := reg.Execute(context.Background(), "toolu_c", name, json.RawMessage(in))
				if !res.IsError && !strings.Contains(res.Content, "unchanged") {
					accepted[i]++
				}
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range accepted {
		total += n
	}
	checkJournal(t, dir, total)
}

// checkJournal holds the plan directory to its promises: every line whole,
// versions 1..n in order, ids dense and unique, and the state equal to a
// serial replay of the inputs through the tools.
func checkJournal(t *testing.T, dir string, wantVersions int) State {
	t.Helper()
	var recs []Record
	final, err := ReadDir(dir, func(_ State, r Record) { recs = append(recs, r) })
	if err != nil {
		t.Fatal(err)
	}
	if wantVersions >= 0 && len(recs) != wantVersions {
		t.Fatalf("%d versions in the journal, %d accepted", len(recs), wantVersions)
	}
	for i, r := range recs {
		if r.Version != uint64(i+1) {
			t.Fatalf("line %d has version %d", i, r.Version)
		}
	}
	// Replay the inputs serially in memory.
	reg, store := tools.NewRegistry(), NewStore(nil)
	if err := Register(reg, store, Options{Limits: todo.Limits{MaxItems: 1_000_000, MaxContentLength: 200}}); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		res := reg.Execute(WithCaller(context.Background(), r.By), r.ToolUseID, r.Tool, r.Input)
		if res.IsError {
			t.Fatalf("replay of version %d (%s %s) rejected: %s", i+1, r.Tool, r.Input, res.Content)
		}
	}
	if got := store.Snapshot(); !reflect.DeepEqual(got, final) {
		t.Fatalf("replay differs from the journal's effects:\n%+v\n%+v", got, final)
	}
	created := 0
	for _, r := range recs {
		if r.Tool == CreateName {
			created++
			if r.Set[0].ID != strconv.Itoa(created) {
				t.Fatalf("create #%d made task %s", created, r.Set[0].ID)
			}
		}
	}
	if final.NextID != created+1 {
		t.Fatalf("next id %d after %d creates", final.NextID, created)
	}
	return final
}

func TestFaultKilledMidUpdateLeavesLastVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reg, _ := openTools(t, dir, "")
	call(t, reg, CreateName, `{"subject":"one","description":""}`)
	call(t, reg, CreateName, `{"subject":"two","description":""}`)

	cmd := exec.Command(os.Args[0], "-test.run=^$", dir)
	cmd.Env = append(os.Environ(), helperEnv+"=hold-lock-mid-update")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "mid-update\n" {
		t.Fatalf("helper: %q", line)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	// Readable at the last complete version, by a reader and a new store;
	// the dead helper's lock is taken over and its half line dropped.
	if st, err := ReadDir(dir, nil); err != nil || st.Version != 2 {
		t.Fatalf("%+v %v", st, err)
	}
	reg2, s2 := openTools(t, dir, "")
	if v := s2.Version(); v != 2 {
		t.Fatalf("version %d", v)
	}
	if got := call(t, reg2, CreateName, `{"subject":"three","description":""}`).Content; got != "Task #3 created successfully: three" {
		t.Fatal(got)
	}
	checkJournal(t, dir, 3)
}

func TestFaultStaleLockTakenOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$", dir)
	cmd.Env = append(os.Environ(), helperEnv+"=hold-lock-mid-update")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "mid-update\n" {
		t.Fatalf("helper: %q", line)
	}
	// While the helper lives, its lock holds.
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		t.Fatal("the lock was free while its holder lived")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	reg, _ := openTools(t, dir, "")
	if got := call(t, reg, CreateName, `{"subject":"one","description":""}`).Content; got != "Task #1 created successfully: one" {
		t.Fatal(got)
	}
	checkJournal(t, dir, 1)
}

// TestFaultKillDuringUpdates kills a process making updates as fast as it
// can, several times, and checks the plan after each.
func TestFaultKillDuringUpdates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$", dir)
		cmd.Env = append(os.Environ(), helperEnv+"=update-forever")
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(out)
		for range 50 + 37*round {
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		st := checkJournal(t, dir, -1)
		s := mustOpen(dir)
		if got := s.Snapshot(); !reflect.DeepEqual(got, st) {
			t.Fatalf("round %d: a new store sees %d, the journal %d", round, got.Version, st.Version)
		}
		s.Close()
		var doc snapshotDoc
		b, _ := os.ReadFile(filepath.Join(dir, SnapshotFile))
		if err := json.Unmarshal(b, &doc); err != nil || doc.Version != st.Version {
			t.Fatalf("round %d: snapshot %d (%v), journal %d", round, doc.Version, err, st.Version)
		}
	}
}

func TestFollowSeesOtherProcessChanges(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, watcher := openTools(t, dir, "")
	seen := make(chan uint64, 100)
	watcher.Events().Every(func(e Event) { seen <- e.State.Version })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- watcher.Follow(ctx) }()
	reg, _ := openTools(t, dir, "")
	for i := range 5 {
		call(t, reg, CreateName, fmt.Sprintf(`{"subject":"t%d","description":""}`, i))
	}
	for want := uint64(1); want <= 5; want++ {
		if got := <-seen; got != want {
			t.Fatalf("saw version %d, want %d", got, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestAttachLazy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := NewStore(nil)
	if err := s.AttachLazy(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, JournalFile)); err == nil {
		t.Fatal("files made before the first change")
	}
	reg := tools.NewRegistry()
	if err := Register(reg, s, Options{Limits: todo.DefaultLimits()}); err != nil {
		t.Fatal(err)
	}
	call(t, reg, CreateName, `{"subject":"one","description":""}`)
	s.Close()
	s2 := NewStore(nil)
	if err := s2.AttachLazy(dir); err != nil || s2.Version() != 1 || s2.Path() != dir {
		t.Fatalf("%v: version %d at %q", err, s2.Version(), s2.Path())
	}
	s2.Close()
}

func TestOpenRemovesAKilledWritersTemporaryFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tmp := filepath.Join(dir, "."+SnapshotFile+".12345")
	if err := os.WriteFile(tmp, []byte(`{"version":`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(dir)
	defer s.Close()
	if _, err := os.Stat(tmp); err == nil {
		t.Fatal("the temporary file is still there")
	}
}
