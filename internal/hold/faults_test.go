package hold

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestFaultHostileTranscripts: a transcript that is a symlink, a FIFO or a
// directory is refused (without blocking on the FIFO); one replaced by
// another file, cut shorter, or rewritten in place under the state's
// offset is read again from the start; garbage lines, a line of 20 MB and
// a last line without its newline are read past; a state file of
// garbage is a fresh state.
func TestFaultHostileTranscripts(t *testing.T) {
	t.Parallel()
	ls := lines(t, "claude-code-2.1.332_hook.jsonl")
	dir := t.TempDir()
	store := Store{Dir: filepath.Join(dir, "state")}

	real := filepath.Join(dir, "real.jsonl")
	writeLines(t, real, ls[:33])
	link := filepath.Join(dir, "link.jsonl")
	os.Symlink(real, link)
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, fifo, dir} {
		if _, err := Open(store, Source{Transcript: p}, 0, true); !errors.Is(err, readgate.ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}

	path := filepath.Join(dir, "s.jsonl")
	src := Source{Transcript: path}
	held := func(what string) []Held {
		t.Helper()
		s, err := Open(store, src, 0, true)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		defer s.Close()
		return s.held()
	}
	writeLines(t, path, ls[:33])
	if got := held("first"); !holds(got, addTestsRemoved) {
		t.Fatalf("first read: %+v", got)
	}
	// Replaced by another file holding only the start: no plan yet.
	os.Remove(path)
	writeLines(t, path, ls[:10])
	if got := held("replaced"); len(got) != 0 {
		t.Errorf("replaced by a file with no plan: %+v", got)
	}
	// Grown back, then cut shorter than the offset.
	writeLines(t, path, ls[:33])
	held("grown")
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	if got := held("truncated"); len(got) != 0 {
		t.Errorf("truncated: %+v", got)
	}
	// Rewritten in place with the same length (another session's file
	// copied over it): the bytes before the offset differ, so it is read
	// again. (Only the last bytes before the offset are compared: an
	// agent appends to its transcript, it does not edit it.)
	writeLines(t, path, ls[:33])
	held("again")
	b, _ := os.ReadFile(path)
	b = bytes.ReplaceAll(b, []byte(`"Add tests"`), []byte(`"Add TESTS"`))
	b[len(b)-3] ^= 1
	os.WriteFile(path, b, 0o600)
	if got := held("rewritten"); !holds(got, Held{Item: "Add TESTS", Status: todo.StatusPending, How: LossRemoved}) {
		t.Errorf("rewritten in place: %+v", got)
	}
	// Garbage, a huge line, a torn last line: read past.
	writeLines(t, path, ls[:28])
	appendLines(t, path, [][]byte{[]byte("not json\n"), []byte("{\"type\":\"user\",\"message\":\n"), append(bytes.Repeat([]byte("x"), 20<<20), '\n'), []byte("\x00\x01\xff\n")})
	appendLines(t, path, ls[28:33])
	appendLines(t, path, [][]byte{[]byte(`{"type":"user","message":{"role":"user","content":"half`)})
	if got := held("garbage"); !holds(got, addTestsRemoved, updateTheDocsLeft) {
		t.Errorf("with garbage: %+v", got)
	}
	// A state file of garbage.
	os.WriteFile(store.Path(path), []byte("{\"v\":1,\"transcript\":"), 0o600)
	if got := held("bad state"); !holds(got, addTestsRemoved) {
		t.Errorf("with a broken state: %+v", got)
	}
	// A state file that is a symlink is not followed: a fresh state.
	os.Remove(store.Path(path))
	os.Symlink("/etc/passwd", store.Path(path))
	if got := held("state symlink"); !holds(got, addTestsRemoved) {
		t.Errorf("with a symlinked state: %+v", got)
	}
}

// TestMissingTranscriptIsNoPlan: a session that has not written its
// transcript yet (SessionStart) has no plan and holds nothing.
func TestMissingTranscriptIsNoPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(Store{Dir: dir}, Source{Transcript: filepath.Join(dir, "none.jsonl")}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v := s.Stop(StopInput{MaxBlocks: 2}); v.Block || len(v.Held) != 0 {
		t.Fatalf("%+v", v)
	}
}

// TestStateLocked: a reader that does not wait for the lock (a status
// line) reads while a hook holds it, and keeps nothing.
func TestStateLocked(t *testing.T) {
	t.Parallel()
	ls := lines(t, "claude-code-2.1.332_hook.jsonl")
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	writeLines(t, path, ls[:33])
	store := Store{Dir: filepath.Join(dir, "state")}
	hook, err := Open(store, Source{Transcript: path}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	line, err := Open(store, Source{Transcript: path}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := line.View(); len(v.Items) != 2 || v.Dropped != 1 {
		t.Fatalf("view while locked: %+v", v)
	}
	line.Close()
	if _, err := os.Stat(store.Path(path)); err == nil {
		t.Fatal("the reader without the lock kept a state")
	}
	hook.Stop(StopInput{MaxBlocks: 2})
	hook.Close()
	if _, err := os.Stat(store.Path(path)); err != nil {
		t.Fatal(err)
	}
}
