package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// newSession makes a closed session id under dir holding one plan version.
func newSession(t *testing.T, dir, id string) string {
	t.Helper()
	s, err := Open(dir, id, Options{Mode: ModeScript})
	if err != nil {
		t.Fatal(err)
	}
	store := todo.NewStore(nil)
	s.Attach(store)
	store.ReplaceFor("toolu_1", list(2, id))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s.Path()
}

// within runs fn and fails the test when it takes more than 5 s (a FIFO
// read without the gate blocks forever).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// plant replaces the session file name with a symbolic link to /dev/zero
// or a FIFO.
func plant(t *testing.T, path, name, kind string) {
	t.Helper()
	p := filepath.Join(path, name)
	os.Remove(p)
	var err error
	if kind == "link" {
		err = os.Symlink("/dev/zero", p)
	} else {
		err = syscall.Mkfifo(p, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestFaultPlantedSessionFiles: a session file that is a link to /dev/zero
// or a FIFO is skipped with a warning naming it; listing, cleaning and
// continuing still work for the healthy session beside it, and nothing
// blocks or reads without bound.
func TestFaultPlantedSessionFiles(t *testing.T) {
	t.Parallel()
	for _, name := range []string{LockFile, MetaFile, TodosFile, JournalFile} {
		for _, kind := range []string{"link", "fifo"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				newSession(t, dir, "good")
				bad := newSession(t, dir, "bad")
				if name == LockFile {
					// A lock with a holder's pid in it is probed: the worst case.
					os.WriteFile(filepath.Join(bad, LockFile), []byte("1\n"), 0o600)
				}
				if name == TodosFile {
					// todos.json is read only when the journal has no version.
					os.WriteFile(filepath.Join(bad, JournalFile), nil, 0o600)
				}
				plant(t, bad, name, kind)
				// Make the bad one the most recent.
				future := time.Now().Add(time.Minute)
				os.Chtimes(bad, future, future)

				var list []Info
				within(t, "List", func() { list, _ = List(dir) })
				ids := map[string]Info{}
				for _, i := range list {
					ids[i.ID] = i
				}
				if _, ok := ids["good"]; !ok {
					t.Fatalf("the healthy session is not listed: %+v", list)
				}
				w := strings.Join(ids["bad"].Warnings, "|")
				wantKind := map[string]string{"link": "a symbolic link", "fifo": "a FIFO"}[kind]
				if !strings.Contains(w, filepath.Join(bad, name)+" skipped") || !strings.Contains(w, wantKind) {
					t.Fatalf("warnings %q, want one naming %s as %s", w, name, wantKind)
				}
				var latest string
				within(t, "Latest", func() { latest, _, _ = Latest(dir) })
				if latest != "good" {
					t.Fatalf("Latest = %q, want the healthy session", latest)
				}
				var removed []Removed
				within(t, "Clean", func() { removed, _ = Clean(dir, time.Now().Add(time.Hour), true) })
				for _, r := range removed {
					if r.ID == "bad" && name == LockFile && !strings.Contains(r.Skipped, wantKind) {
						t.Fatalf("clean with a bad lock: %+v, want it skipped saying why", r)
					}
				}
				var warnings []string
				within(t, "Open", func() {
					s, err := Open(dir, "bad", Options{MustExist: true, Warn: func(w string) { warnings = append(warnings, w) }})
					if err == nil {
						s.Close()
						if len(warnings) == 0 {
							t.Errorf("resumed with a planted %s and no warning", name)
						}
					} else if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), wantKind) {
						t.Errorf("Open: %v, want an error naming %s as %s", err, name, wantKind)
					}
				})
			})
		}
	}
}

// TestFaultCleanSaysWhatItSkipped: a session whose lock is a symbolic link
// is not removed, and the result says why.
func TestFaultCleanSaysWhatItSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := newSession(t, dir, "bad")
	newSession(t, dir, "good")
	plant(t, bad, LockFile, "link")
	removed, err := Clean(dir, time.Now().Add(time.Hour), false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Removed{}
	for _, r := range removed {
		got[r.ID] = r
	}
	if r := got["bad"]; r.Skipped == "" || !strings.Contains(r.Skipped, "symbolic link") {
		t.Fatalf("bad: %+v, want skipped because its lock is a symbolic link", r)
	}
	if r := got["good"]; r.Skipped != "" || r.Err != nil {
		t.Fatalf("good: %+v, want removed", r)
	}
	if _, err := os.Lstat(bad); err != nil {
		t.Fatalf("the skipped session was removed: %v", err)
	}
}

// TestFaultLongJournalLine: a todos.jsonl line longer than the cap is
// skipped with its line number, the version before it restored, and memory
// stays bounded by the cap, not the line.
func TestFaultLongJournalLine(t *testing.T) {
	dir := t.TempDir()
	path := newSession(t, dir, "long")
	f, err := os.OpenFile(filepath.Join(path, JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	long := make([]byte, 40<<20)
	for i := range long {
		long[i] = 'x'
	}
	f.Write([]byte(`{"version":2,"todos":[{"content":"`))
	f.Write(long)
	f.Write([]byte("\"}]}\n"))
	f.Close()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var warnings []string
	snap, err := Load(path, func(w string) { warnings = append(warnings, w) })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("a long line refused the session: %v", err)
	}
	if snap.Version != 1 || len(snap.Items) != 2 {
		t.Fatalf("restored %+v, want version 1", snap)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 2 skipped: longer than") {
		t.Fatalf("warnings %q, want line 2 named", warnings)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("Load allocated %d bytes past a 40 MiB line; want a bounded read", alloc)
	}
}

// TestFaultManyVersionsLoadReadsTheEnd: restoring a session with many
// versions reads only its newest line, not every version.
func TestFaultManyVersionsLoadReadsTheEnd(t *testing.T) {
	dir := t.TempDir()
	path := newSession(t, dir, "many")
	var b []byte
	for v := 2; v <= 200000; v++ {
		b = append(b, `{"version":`+strconv.Itoa(v)+`,"time":"2026-01-01T00:00:00Z","tool_use_id":"t","todos":[{"content":"a","status":"pending","activeForm":"a"}]}`+"\n"...)
	}
	if err := os.WriteFile(filepath.Join(path, JournalFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	snap, err := Load(path, nil)
	runtime.ReadMemStats(&after)
	if err != nil || snap.Version != 200000 {
		t.Fatalf("Load = version %d, %v", snap.Version, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("Load allocated %d bytes for 200 000 versions; want it to read only the last", alloc)
	}
}

// TestEmptySessionLeavesNothing: a run that writes no plan and has no
// conversation leaves no session directory; one with a plan keeps it.
func TestEmptySessionLeavesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, "empty", Options{Mode: ModeScript})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(s.Path()); !os.IsNotExist(err) {
		t.Fatalf("an empty session was left behind (%v)", err)
	}
	kept := newSession(t, dir, "kept")
	if _, err := os.Lstat(kept); err != nil {
		t.Fatal("a session with a plan was removed")
	}
	// Resumed and closed without a change: kept.
	s, err = Open(dir, "kept", Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Lstat(kept); err != nil {
		t.Fatal("a resumed session was removed")
	}
}

// TestFailedAgentAttemptLeavesNothing: an agent session whose prompts the
// model never answered (no key, a network error, a 401 or 529) is removed
// when it ends, as an empty one is; one answer keeps it.
func TestFailedAgentAttemptLeavesNothing(t *testing.T) {
	t.Parallel()
	const request = `{"type":"request","time":"2026-11-26T10:00:00Z","messages":[{"role":"user","content":"hi"}]}` + "\n"
	const response = `{"type":"response","time":"2026-11-26T10:00:01Z","message":{"role":"assistant","content":[]}}` + "\n"
	for _, tc := range []struct {
		name, transcript string
		kept             bool
	}{
		{"prompts never answered", request + request, false},
		{"an answer", request + response, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir(), "agent", Options{Mode: ModeAgent})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(s.Path(), TranscriptFile), []byte(tc.transcript), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(s.Path()); (err == nil) != tc.kept {
				t.Fatalf("kept %v, want %v (%v)", err == nil, tc.kept, err)
			}
		})
	}
}

// TestLatestPassesOverEmptySessions: --continue's choice is the most recent
// session with a plan or a conversation, not a newer empty one.
func TestLatestPassesOverEmptySessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newSession(t, dir, "planned")
	// A newer empty one, as a killed run leaves it.
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o700)
	os.WriteFile(filepath.Join(empty, MetaFile), []byte(`{"id":"empty"}`), 0o600)
	os.WriteFile(filepath.Join(empty, JournalFile), nil, 0o600)
	future := time.Now().Add(time.Minute)
	os.Chtimes(empty, future, future)
	if id, _, err := Latest(dir); err != nil || id != "planned" {
		t.Fatalf("Latest = %q, %v; want planned", id, err)
	}
}

// TestLatestPassesOverAFailedAgentAttempt: a newer agent session whose only
// turn failed (a request in its transcript, no response, no plan) is
// passed over by --continue; a conversation (counted or found in the
// transcript) or a task plan is something to continue.
func TestLatestPassesOverAFailedAgentAttempt(t *testing.T) {
	t.Parallel()
	const request = `{"type":"request","time":"2026-11-26T10:00:00Z","messages":[{"role":"user","content":"hi"}]}` + "\n"
	const response = `{"type":"response","time":"2026-11-26T10:00:01Z","message":{"role":"assistant","content":[]}}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string // the newer session's files
		want  string
	}{
		{"failed attempt", map[string]string{MetaFile: `{"id":"newer","mode":"agent"}`, TranscriptFile: request}, "planned"},
		{"failed attempt with a long request", map[string]string{MetaFile: `{"id":"newer","mode":"agent"}`,
			TranscriptFile: `{"type":"request","x":"` + strings.Repeat(`{"type":"response"`, 10000) + `"}` + "\n"}, "planned"},
		{"a counted conversation", map[string]string{MetaFile: `{"id":"newer","mode":"agent","agent_turns":1}`, TranscriptFile: request + response}, "newer"},
		{"a conversation not counted", map[string]string{MetaFile: `{"id":"newer","mode":"agent"}`, TranscriptFile: request + response}, "newer"},
		{"a task plan only", map[string]string{MetaFile: `{"id":"newer","mode":"shell"}`, "tasks.jsonl": `{"version":1}` + "\n"}, "newer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			newSession(t, dir, "planned")
			newer := filepath.Join(dir, "newer")
			if err := os.Mkdir(newer, 0o700); err != nil {
				t.Fatal(err)
			}
			for name, data := range tc.files {
				if err := os.WriteFile(filepath.Join(newer, name), []byte(data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			future := time.Now().Add(time.Minute)
			os.Chtimes(newer, future, future)
			if id, _, err := Latest(dir); err != nil || id != tc.want {
				t.Fatalf("Latest = %q, %v; want %s", id, err, tc.want)
			}
		})
	}
}

// TestListBudget: one List reads each file once however many sessions
// hard-link it (100 sessions whose todos.json is one 15 MiB file: 1.5 GB
// read before), says so in the sessions' warnings, and reads no more than
// its budget in all.
func TestListBudget(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(t.TempDir(), "todos.json")
	items := `{"content":"` + strings.Repeat("x", 15<<20) + `","status":"pending","activeForm":"x"}`
	if err := os.WriteFile(big, []byte(`{"todos":[`+items+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		s := filepath.Join(dir, fmt.Sprintf("s%03d", i))
		if err := os.Mkdir(s, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(big, filepath.Join(s, TodosFile)); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	list, err := List(dir)
	runtime.ReadMemStats(&after)
	if err != nil || len(list) != 100 {
		t.Fatalf("%d sessions, %v", len(list), err)
	}
	links := 0
	for _, in := range list {
		for _, w := range in.Warnings {
			if strings.Contains(w, "a hard link to a file already read") {
				links++
			}
		}
	}
	if links != 99 {
		t.Errorf("%d sessions say the hard link, want 99", links)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 100<<20 {
		t.Errorf("%d MiB allocated", grew>>20)
	}
}

// TestListReadsAtMostMaxDirEntries: a directory of more entries than a
// listing reads (readgate.MaxDirEntries; 50 here) is listed from its first
// entries only, with an error that names it; sessions among them are
// listed.
func TestListReadsAtMostMaxDirEntries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 60 {
		newSession(t, dir, fmt.Sprintf("s%03d", i))
	}
	got, err := listAtMost(dir, 50)
	if !errors.Is(err, readgate.ErrBudget) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("error %v, want one naming %s and wrapping readgate.ErrBudget", err, dir)
	}
	if len(got) != 50 {
		t.Fatalf("%d sessions listed, want the 50 read", len(got))
	}
	if got, err := listAtMost(dir, 60); len(got) != 60 || err != nil {
		t.Fatalf("with room for all: %d sessions, %v", len(got), err)
	}
}
