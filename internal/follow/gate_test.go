package follow

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/tools/todo"
)

func versionLine(v int, content string) string {
	return `{"version":` + strconv.Itoa(v) + `,"time":"2026-01-01T00:00:00Z","tool_use_id":"t` + strconv.Itoa(v) + `","todos":[{"content":"` + content + `","status":"in_progress","activeForm":"` + content + `"}]}` + "\n"
}

// TestFaultOnceReadsTheEnd: watch --once of a session with many versions
// reads only the end of its todos.jsonl.
func TestFaultOnceReadsTheEnd(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	var b []byte
	for v := 1; v <= 200000; v++ {
		b = append(b, versionLine(v, "step")...)
	}
	os.WriteFile(filepath.Join(dir, "s", "todos.jsonl"), b, 0o600)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	u, err := Once(Session{Dir: dir, ID: "s"})
	runtime.ReadMemStats(&after)
	if err != nil || u.Version == nil || u.Version.N != 200000 || len(u.New) != 2 || u.New[0].N != 199999 {
		t.Fatalf("Once = %+v, %v", u, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("Once allocated %d bytes for 200 000 versions; want it to read only the end", alloc)
	}
}

// TestFaultOnceSkipsALongLine: a last line over the cap is skipped with its
// number; the version before it is shown.
func TestFaultOnceSkipsALongLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	long := `{"version":2,"todos":[{"content":"` + strings.Repeat("x", 20<<20) + `"}]}` + "\n"
	os.WriteFile(filepath.Join(dir, "s", "todos.jsonl"), []byte(versionLine(1, "first")+long), 0o600)
	u, err := Once(Session{Dir: dir, ID: "s"})
	if err != nil || u.Version == nil || u.Version.N != 1 {
		t.Fatalf("Once = %+v, %v", u, err)
	}
	if len(u.Warnings) != 1 || !strings.Contains(u.Warnings[0], "line 2 skipped: longer than") {
		t.Fatalf("warnings %q", u.Warnings)
	}
}

// TestFaultPlantedJournal: a todos.jsonl that is a link to /dev/zero or a
// FIFO is skipped with a warning, by Once and by Follow, without blocking.
func TestFaultPlantedJournal(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"link", "fifo"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "s"), 0o700)
			p := filepath.Join(dir, "s", "todos.jsonl")
			if kind == "link" {
				os.Symlink("/dev/zero", p)
			} else {
				syscall.Mkfifo(p, 0o600)
			}
			done := make(chan Update, 1)
			go func() { u, _ := Once(Session{Dir: dir, ID: "s"}); done <- u }()
			select {
			case u := <-done:
				if u.Version != nil || len(u.Warnings) != 1 || !strings.Contains(u.Warnings[0], "todos.jsonl skipped: not a regular file") {
					t.Fatalf("Once = %+v", u)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Once blocked")
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			updates := make(chan Update, 10)
			go Follow(ctx, Session{Dir: dir, ID: "s"}, func(u Update) { updates <- u })
			select {
			case u := <-updates:
				if len(u.Warnings) != 1 || !strings.Contains(u.Warnings[0], "not a regular file") {
					t.Fatalf("Follow's first update %+v", u)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Follow blocked")
			}
		})
	}
}

// TestFaultFollowLongLine: a line over the cap in a followed file is
// skipped with its line number; the versions around it arrive.
func TestFaultFollowLongLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	p := filepath.Join(dir, "s", "todos.jsonl")
	os.WriteFile(p, []byte(versionLine(1, "first")), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Session{Dir: dir, ID: "s"}, func(u Update) { updates <- u })
	var warnings []string
	waitFor := func(n int) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case u := <-updates:
				warnings = append(warnings, u.Warnings...)
				if u.Version != nil && u.Version.N == n {
					return
				}
			case <-deadline:
				t.Fatalf("never saw version %d", n)
			}
		}
	}
	waitFor(1)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	chunk := strings.Repeat("x", 1<<20)
	f.WriteString(`{"version":2,"todos":[{"content":"`)
	for range 20 {
		f.WriteString(chunk)
	}
	f.WriteString("\"}]}\n" + versionLine(3, "third"))
	f.Close()
	waitFor(3)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 2 skipped: longer than") {
		t.Fatalf("warnings %q, want line 2 named", warnings)
	}
}

// openWithPlan opens session id under dir, live until the test ends,
// with a plan of one item when plan is set.
func openWithPlan(t *testing.T, dir, id string, plan bool) *session.Session {
	t.Helper()
	s, err := session.Open(dir, id, session.Options{Mode: session.ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if plan {
		store := todo.NewStore(nil)
		s.Attach(store)
		store.ReplaceFor("toolu_1", []todo.Item{{Content: id + " work", ActiveForm: id + " working", Status: todo.StatusInProgress}})
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestWatchStaysWithALivePlan: with no id, watch starts on the live session
// with a plan (not a newer ended, empty one), stays there when a newer
// empty session starts, and moves, saying so in one line, when a newer
// session gets a plan.
func TestWatchStaysWithALivePlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	openWithPlan(t, dir, "planned", true)
	// A newer session that ended empty (as a killed run leaves it).
	os.MkdirAll(filepath.Join(dir, "ended"), 0o700)
	os.WriteFile(filepath.Join(dir, "ended", "session.json"), []byte(`{"id":"ended"}`), 0o600)
	future := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "ended"), future, future)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Session{Dir: dir}, func(u Update) { updates <- u })
	next := func() Update {
		t.Helper()
		select {
		case u := <-updates:
			return u
		case <-time.After(5 * time.Second):
			t.Fatal("no update")
		}
		return Update{}
	}
	if u := next(); u.Source != "planned" || u.Version == nil {
		t.Fatalf("started on %+v, want the live session with a plan", u)
	}
	// A newer live session with no plan (a `-c 'echo hi'`): no switch.
	openWithPlan(t, dir, "empty", false)
	// Then a newer live one with a plan: a switch, said in one line.
	openWithPlan(t, dir, "newplan", true)
	for {
		u := next()
		if u.Source == "empty" {
			t.Fatalf("switched to the empty session: %+v", u)
		}
		if u.Source == "newplan" {
			if !strings.HasPrefix(u.Note, "switched from planned to newplan") || strings.Contains(u.Note, "\n") {
				t.Fatalf("note %q", u.Note)
			}
			return
		}
	}
}

// TestFaultFollowNewestStartsAtTheEnd: a view that shows only the newest
// version starts from the end of a long todos.jsonl (not after reading
// every version), then goes on with each new one.
func TestFaultFollowNewestStartsAtTheEnd(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	p := filepath.Join(dir, "s", "todos.jsonl")
	var b []byte
	for v := 1; v <= 200000; v++ {
		b = append(b, versionLine(v, "step")...)
	}
	os.WriteFile(p, b, 0o600)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Session{Dir: dir, ID: "s", Newest: true}, func(u Update) { updates <- u })
	var u Update
	select {
	case u = <-updates:
	case <-time.After(5 * time.Second):
		t.Fatal("no first update")
	}
	runtime.ReadMemStats(&after)
	if u.Version == nil || u.Version.N != 200000 || len(u.New) > 2 {
		t.Fatalf("first update: version %v, %d new; want the newest alone", u.Version, len(u.New))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Fatalf("starting allocated %d bytes; want only the end read", alloc)
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(versionLine(200001, "next"))
	f.Close()
	for {
		select {
		case u = <-updates:
			if u.Version != nil && u.Version.N == 200001 {
				if len(u.New) != 1 {
					t.Fatalf("%d new versions, want the one appended", len(u.New))
				}
				return
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the appended version never came")
		}
	}
}
