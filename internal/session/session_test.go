package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// list returns a list of n items, the first in progress.
func list(n int, tag string) []todo.Item {
	items := make([]todo.Item, n)
	for i := range items {
		items[i] = todo.Item{Content: fmt.Sprintf("%s task %d", tag, i), ActiveForm: fmt.Sprintf("Doing %s %d", tag, i), Status: todo.StatusPending}
	}
	if n > 0 {
		items[0].Status = todo.StatusInProgress
	}
	return items
}

func readVersions(t *testing.T, dir string) []Version {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs, err := ReadVersions(f, func(w string) { t.Errorf("warning: %s", w) })
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestOpenWriteResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, "s1", Options{Mode: ModeShell, Version: "v9", WorkDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Resumed() {
		t.Fatal("a new session says it was resumed")
	}
	// todos.json exists at once, empty.
	if b, _ := os.ReadFile(filepath.Join(s.Path(), TodosFile)); string(b) != `{"todos":[]}` {
		t.Fatalf("todos.json at start: %q", b)
	}
	store := todo.NewStore(nil)
	s.Attach(store)
	for v := 1; v <= 50; v++ {
		store.ReplaceFor("toolu_"+strconv.Itoa(v), list(v%7, "a"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	vs := readVersions(t, s.Path())
	if len(vs) != 50 {
		t.Fatalf("%d versions in todos.jsonl, want 50 (none may be lost)", len(vs))
	}
	for i, v := range vs {
		if v.Version != uint64(i+1) || v.ToolUseID != "toolu_"+strconv.Itoa(i+1) || len(v.Todos) != (i+1)%7 || v.Time.IsZero() {
			t.Fatalf("line %d: %+v", i, v)
		}
	}
	b, _ := os.ReadFile(filepath.Join(s.Path(), TodosFile))
	if want := todo.AppendList(nil, list(50%7, "a")); !bytes.Equal(b, want) {
		t.Fatalf("todos.json %s, want %s", b, want)
	}
	var meta Meta
	mb, _ := os.ReadFile(filepath.Join(s.Path(), MetaFile))
	if err := json.Unmarshal(mb, &meta); err != nil || meta.ID != "s1" || meta.Mode != ModeShell || meta.Version != "v9" || meta.Dir != "/w" || meta.Created.IsZero() {
		t.Fatalf("session.json %s (%v)", mb, err)
	}

	// Resume: the list and its version come back; the next write goes on.
	s2, err := Open(dir, "s1", Options{Mode: ModeScript, MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s2.Resumed() || s2.Meta().Mode != ModeShell {
		t.Fatalf("resumed %v meta %+v", s2.Resumed(), s2.Meta())
	}
	store2 := todo.NewStore(nil)
	s2.Attach(store2)
	snap := store2.Snapshot()
	if snap.Version != 50 || len(snap.Items) != 1 || snap.Items[0].Content != "a task 0" {
		t.Fatalf("restored %+v", snap)
	}
	store2.ReplaceFor("toolu_51", list(2, "b"))
	s2.Close()
	vs = readVersions(t, s.Path())
	if len(vs) != 51 || vs[50].Version != 51 || vs[50].ToolUseID != "toolu_51" {
		t.Fatalf("after resume: %d versions, last %+v", len(vs), vs[len(vs)-1])
	}
}

func TestOpenMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, id string
		setup    func()
		want     string
	}{
		{"no directory", "nope", func() {}, `no such session "nope"`},
		{"not a session", "bare", func() { os.MkdirAll(filepath.Join(dir, "bare"), 0o700) }, "not a todo-shell session"},
		{"damaged session.json", "bad", func() {
			os.MkdirAll(filepath.Join(dir, "bad"), 0o700)
			os.WriteFile(filepath.Join(dir, "bad", MetaFile), []byte("{"), 0o600)
		}, "session.json is damaged"},
		{"bad id", "../x", func() {}, "session id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			_, err := Open(dir, tc.id, Options{MustExist: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "nope")); err == nil {
		t.Fatal("resuming a missing session created it")
	}
}

func TestDamagedJournalLineSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, "d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	store := todo.NewStore(nil)
	s.Attach(store)
	store.ReplaceFor("toolu_1", list(1, "x"))
	store.ReplaceFor("toolu_2", list(2, "x"))
	s.Close()
	// A damaged line in the middle and a line cut off at the end.
	f, _ := os.OpenFile(filepath.Join(s.Path(), JournalFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("garbage\n" + `{"version":3,"time":"2026-01-01T00:00:00Z","tool_use_id":"toolu_3","todos":[{"cont`)
	f.Close()

	var warnings []string
	s2, err := Open(dir, "d", Options{MustExist: true, Warn: func(w string) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatalf("a damaged line failed the start: %v", err)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "line 3 skipped") || !strings.Contains(warnings[1], "line 4 skipped") {
		t.Fatalf("warnings %q", warnings)
	}
	store2 := todo.NewStore(nil)
	s2.Attach(store2)
	if v := store2.Version(); v != 2 {
		t.Fatalf("restored version %d, want 2", v)
	}
	store2.ReplaceFor("toolu_3", list(3, "y"))
	s2.Close()
	// The new line starts on a line of its own.
	f, _ = os.Open(filepath.Join(s.Path(), JournalFile))
	vs, _ := ReadVersions(f, nil)
	f.Close()
	if last := vs[len(vs)-1]; last.Version != 3 || last.ToolUseID != "toolu_3" || len(last.Todos) != 3 {
		t.Fatalf("last %+v", last)
	}
}

// The helper process: TestHelperProcess runs only when the test binary is
// started by a test below with SESSION_HELPER set.
func TestHelperProcess(t *testing.T) {
	t.Parallel()
	role := os.Getenv("SESSION_HELPER")
	if role == "" {
		t.Skip("helper process")
	}
	dir, id := os.Getenv("SESSION_DIR"), os.Getenv("SESSION_ID")
	s, err := Open(dir, id, Options{Mode: ModeScript})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
	switch role {
	case "hold": // hold the session until stdin closes
		fmt.Println("ready")
		bufio.NewReader(os.Stdin).ReadString('\n')
		s.Close()
	case "write": // write versions forever, reporting each hundredth
		store := todo.NewStore(nil)
		s.Attach(store)
		for v := 1; ; v++ {
			store.ReplaceFor("toolu_"+strconv.Itoa(v), list(1+v%9, "v"+strconv.Itoa(v)))
			if v%100 == 0 {
				s.Flush()
				fmt.Println(v)
			}
		}
	}
	os.Exit(0)
}

func helper(t *testing.T, role, dir, id string) (*exec.Cmd, *bufio.Reader, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "SESSION_HELPER="+role, "SESSION_DIR="+dir, "SESSION_ID="+id)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewReader(stdout), func() { stdin.Close() }
}

// wholeVersion checks that b is a whole todos.json: valid JSON of the shape
// the helper writes.
func wholeVersion(b []byte) error {
	var l struct {
		Todos []todo.Item `json:"todos"`
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	if len(l.Todos) == 0 {
		return nil // the empty list before the first write
	}
	tag := strings.Fields(l.Todos[0].Content)[0]
	v, _ := strconv.Atoi(strings.TrimPrefix(tag, "v"))
	if len(l.Todos) != 1+v%9 {
		return fmt.Errorf("version %s has %d items, want %d", tag, len(l.Todos), 1+v%9)
	}
	return nil
}

// TestFaultKill9 kills a process writing versions as fast as it can, at
// different moments: todos.json is always a whole version, readers never
// see part of one, and todos.jsonl holds every version up to the last one
// reported on disk, in order, with at most a cut-off last line.
func TestFaultKill9(t *testing.T) {
	t.Parallel()
	for round := range 6 {
		dir := t.TempDir()
		cmd, out, _ := helper(t, "write", dir, "crash")
		want := 100 * (1 + round*2)
		todos := filepath.Join(dir, "crash", TodosFile)
		// A reader reads todos.json all the time it is being replaced.
		stop, readerDone := make(chan struct{}), make(chan error, 1)
		reads := 0
		go func() {
			for {
				select {
				case <-stop:
					readerDone <- nil
					return
				default:
				}
				if b, err := os.ReadFile(todos); err == nil {
					reads++
					if err := wholeVersion(b); err != nil {
						readerDone <- fmt.Errorf("a reader saw a partial todos.json: %w: %q", err, b)
						return
					}
				}
			}
		}()
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("helper: %v", err)
			}
			if n, _ := strconv.Atoi(strings.TrimSpace(line)); n >= want {
				break
			}
		}
		// Kill at a different moment each round, in the middle of writes.
		time.Sleep(time.Duration(round) * 700 * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		close(stop)
		if err := <-readerDone; err != nil {
			t.Fatal(err)
		}

		b, err := os.ReadFile(todos)
		if err != nil {
			t.Fatal(err)
		}
		if err := wholeVersion(b); err != nil {
			t.Fatalf("round %d: todos.json after kill -9: %v: %q", round, err, b)
		}
		var warnings []string
		f, _ := os.Open(filepath.Join(dir, "crash", JournalFile))
		vs, _ := ReadVersions(f, func(w string) { warnings = append(warnings, w) })
		f.Close()
		if len(warnings) > 1 {
			t.Fatalf("more than the last line damaged: %q", warnings)
		}
		if len(vs) < want {
			t.Fatalf("%d versions on disk, want at least %d (reported flushed)", len(vs), want)
		}
		for i, v := range vs {
			if v.Version != uint64(i+1) {
				t.Fatalf("line %d is version %d", i, v.Version)
			}
		}
		// The session resumes from what is on disk, and is not locked.
		s, err := Open(dir, "crash", Options{MustExist: true})
		if err != nil {
			t.Fatalf("resume after kill -9: %v", err)
		}
		if s.Saved().Version != vs[len(vs)-1].Version {
			t.Fatalf("resumed version %d, last line %d", s.Saved().Version, vs[len(vs)-1].Version)
		}
		s.Close()
		t.Logf("round %d: killed after %d versions on disk (%d reads during writes)", round, len(vs), reads)
	}
}

// TestFaultTwoProcesses: a second process cannot open a session another
// holds, and is told which process holds it; once the first lets go it can.
func TestFaultTwoProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd, out, release := helper(t, "hold", dir, "shared")
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	_, err := Open(dir, "shared", Options{})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.PID != cmd.Process.Pid {
		t.Fatalf("err %v, want busy by pid %d", err, cmd.Process.Pid)
	}
	if want := fmt.Sprintf("session shared is in use by process %d", cmd.Process.Pid); err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
	if live, pid := Live(filepath.Join(dir, "shared")); !live || pid != cmd.Process.Pid {
		t.Fatalf("Live = %v, %d", live, pid)
	}
	// clean never removes it, however old.
	removed, err := Clean(dir, time.Now().Add(time.Hour), false)
	if err != nil || len(removed) != 0 {
		t.Fatalf("clean removed %+v (%v)", removed, err)
	}
	release()
	cmd.Wait()
	// The holder wrote nothing, so its session was removed when it ended;
	// the id is free to use.
	s, err := Open(dir, "shared", Options{})
	if err != nil {
		t.Fatalf("after the holder exited: %v", err)
	}
	s.Close()
}

// TestFaultKilledHolderIsNotLive: a holder killed with -9 leaves its pid in
// the lock file but no lock.
func TestFaultKilledHolderIsNotLive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd, out, _ := helper(t, "hold", dir, "dead")
	out.ReadString('\n')
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if live, _ := Live(filepath.Join(dir, "dead")); live {
		t.Fatal("a killed holder counts as live")
	}
	s, err := Open(dir, "dead", Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// TestNoteOffload: each note is a line of offloads.jsonl; a long command
// is cut to MaxNotedCommand bytes, whole characters; a closed session
// writes nothing; the file alone leaves a session empty.
func TestNoteOffload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, "s1", Options{Mode: ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.NoteOffload("toolu_1", "seq 1 5000"); err != nil {
		t.Fatal(err)
	}
	if err := s.NoteOffload("toolu_2", strings.Repeat("界", 1000)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(s.Path(), OffloadsFile))
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var n OffloadNote
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &n) != nil || n.ToolUseID != "toolu_1" || n.Command != "seq 1 5000" {
		t.Fatalf("%q", b)
	}
	if json.Unmarshal([]byte(lines[1]), &n) != nil || len(n.Command) > MaxNotedCommand || !utf8.ValidString(n.Command) || n.Command == "" {
		t.Fatalf("%q", lines[1])
	}
	if !s.empty() {
		t.Fatal("offloads.jsonl alone made the session something to come back to")
	}
	s.Close()
	if err := s.NoteOffload("toolu_3", "late"); err != nil {
		t.Fatal(err)
	}
}
