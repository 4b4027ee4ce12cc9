package follow

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClaudeProjectDir(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/home/me/my_app.v2":  "-home-me-my-app-v2",
		"/home/me/project":    "-home-me-project",
		"/tmp/a b/ünï":        "-tmp-a-b--n-", // one dash per UTF-16 code unit
		"/tmp/😀":              "-tmp---",
		"/Users/Me/Dev/x-y.z": "-Users-Me-Dev-x-y-z",
	} {
		if got := filepath.Base(ClaudeProjectDir("/r", in)); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// statuses is the first letter of each status of an update's list.
func statuses(u Update) string {
	if u.Version == nil {
		return "-"
	}
	var b strings.Builder
	for _, it := range u.Version.Todos {
		b.WriteString(it.Status[:1])
	}
	return b.String()
}

// TestFollowGrowingClaudeTranscript writes a fixture transcript into a
// project directory a line at a time, the last line in two halves, and
// waits for each plan version to be reported.
func TestFollowGrowingClaudeTranscript(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	done := make(chan error, 1)
	go func() { done <- Follow(ctx, Claude{ProjectDir: project}, func(u Update) { updates <- u }) }()

	next := func(want string) {
		t.Helper()
		select {
		case u := <-updates:
			if got := statuses(u); got != want {
				t.Fatalf("update %q, want %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no update (want %q)", want)
		}
	}
	next("-") // nothing yet

	// An old session's transcript, then the one being written.
	src, err := os.ReadFile("../plan/testdata/claude_dropped.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(project, "6f1c2a9e-0b7d-4c55-9a1e-3d2f8c1b7e40.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	next("-") // the new session, still empty
	want := map[int]string{4: "ippp", 8: "ciip", 12: "ccc"}
	sc := bufio.NewScanner(strings.NewReader(string(src)))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text() + "\n"
		if n == 12 {
			// Half a line is never read.
			f.WriteString(line[:len(line)/2])
			select {
			case u := <-updates:
				t.Fatalf("update %q from half a line", statuses(u))
			case <-time.After(50 * time.Millisecond):
			}
			f.WriteString(line[len(line)/2:])
		} else {
			f.WriteString(line)
		}
		if w, ok := want[n]; ok {
			next(w)
		}
	}

	// A newer session starts: watch moves to it.
	os.WriteFile(filepath.Join(project, "agent-1234.jsonl"), src, 0o600) // a sub-agent's: ignored
	tasks, _ := os.ReadFile("../plan/testdata/claude_tasks.jsonl")
	os.WriteFile(filepath.Join(project, "second.jsonl.tmp"), tasks, 0o600)
	os.Rename(filepath.Join(project, "second.jsonl.tmp"), filepath.Join(project, "second.jsonl"))
	deadline := time.After(5 * time.Second)
	for {
		select {
		case u := <-updates:
			if u.Source == "agent-1234.jsonl" {
				t.Fatal("followed a sub-agent transcript")
			}
			if u.Source == "second.jsonl" && statuses(u) == "cc" {
				cancel()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				return
			}
		case <-deadline:
			t.Fatal("did not move to the newer transcript")
		}
	}
}

func TestFollowSessionWaitsForDirectory(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "not", "yet")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Session{Dir: dir, ID: "s1"}, func(u Update) { updates <- u })
	<-updates
	os.MkdirAll(filepath.Join(dir, "s1"), 0o700)
	line, _ := os.ReadFile("../plan/testdata/todos.jsonl")
	os.WriteFile(filepath.Join(dir, "s1", "todos.jsonl"), line, 0o600)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case u := <-updates:
			if statuses(u) == "ci" && u.Source == "s1" {
				return
			}
		case <-deadline:
			t.Fatal("no update after the session appeared")
		}
	}
}

func TestOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "old"), 0o700)
	os.MkdirAll(filepath.Join(dir, "new"), 0o700)
	line, _ := os.ReadFile("../plan/testdata/todos.jsonl")
	os.WriteFile(filepath.Join(dir, "new", "todos.jsonl"), line, 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "old"), old, old)
	u, err := Once(Session{Dir: dir})
	if err != nil || u.Source != "new" || statuses(u) != "ci" || len(u.New) != 2 {
		t.Fatalf("%+v %v", u, err)
	}
}

// TestFaultJournalReplacedOrDamaged: a todos.jsonl replaced by a shorter
// file is read again from its start, and a damaged line is skipped.
func TestFaultJournalReplacedOrDamaged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "s"), 0o700)
	path := filepath.Join(dir, "s", "todos.jsonl")
	data, _ := os.ReadFile("../plan/testdata/todos.jsonl")
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(path, data, 0o600)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Session{Dir: dir, ID: "s"}, func(u Update) { updates <- u })
	waitFor := func(want string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case u := <-updates:
				if statuses(u) == want {
					return
				}
			case <-deadline:
				t.Fatalf("never saw %q", want)
			}
		}
	}
	waitFor("ci")
	// Replaced, atomically, by a shorter file holding only version 1.
	os.WriteFile(path+".tmp", []byte(lines[0]), 0o600)
	os.Rename(path+".tmp", path)
	waitFor("ip")
	// A damaged line, then a good one.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"version\":2,\"todos\":[\n" + lines[1])
	f.Close()
	waitFor("ci")
}

// TestFollowSessionWaitsForADeepPathMadeAtOnce: the session's directory
// is made with its parents in one go (mkdir -p) just as Follow starts
// watching, many times over. A directory made between Follow's failed
// watch of it and its watch of the parent brought no event, and Follow
// waited for ever (seen once, under load, in
// TestFollowSessionWaitsForDirectory).
func TestFollowSessionWaitsForADeepPathMadeAtOnce(t *testing.T) {
	t.Parallel()
	line, err := os.ReadFile("../plan/testdata/todos.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		base := t.TempDir()
		dir := filepath.Join(base, "a", "b", "c", "d")
		ctx, cancel := context.WithCancel(context.Background())
		updates := make(chan Update, 100)
		done := make(chan error, 1)
		go func() { done <- Follow(ctx, Session{Dir: dir, ID: "s1"}, func(u Update) { updates <- u }) }()
		// No wait for Follow's first update: the directories appear while
		// it looks for the nearest one that exists.
		os.MkdirAll(filepath.Join(dir, "s1"), 0o700)
		os.WriteFile(filepath.Join(dir, "s1", "todos.jsonl"), line, 0o600)
		deadline := time.After(5 * time.Second)
	wait:
		for {
			select {
			case u := <-updates:
				if statuses(u) == "ci" && u.Source == "s1" {
					break wait
				}
			case <-deadline:
				cancel()
				t.Fatalf("run %d: no update after the session appeared", i)
			}
		}
		cancel()
		<-done
	}
}
