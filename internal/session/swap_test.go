package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestFaultSessionDirSwappedBetweenWrites: the session directory renamed
// away and replaced by a link to another directory between two writes (what
// the owner of a shared offload directory could do): the second write still
// goes into the directory the session opened, and the other directory's
// todos.json and session.json are untouched.
func TestFaultSessionDirSwappedBetweenWrites(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	victim := t.TempDir()
	os.WriteFile(filepath.Join(victim, TodosFile), []byte("precious"), 0o644)
	os.WriteFile(filepath.Join(victim, MetaFile), []byte("precious"), 0o644)
	s, err := Open(root, "s", Options{Mode: ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	store := todo.NewStore(nil)
	s.Attach(store)
	store.ReplaceFor("toolu_1", list(1, "first"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(root, "moved")
	if err := os.Rename(s.Path(), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, s.Path()); err != nil {
		t.Fatal(err)
	}
	store.ReplaceFor("toolu_2", list(2, "second"))
	s.CountTurn() // rewrites session.json
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{TodosFile, MetaFile} {
		if b, _ := os.ReadFile(filepath.Join(victim, name)); string(b) != "precious" {
			t.Fatalf("the other directory's %s was replaced: %q", name, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(moved, TodosFile)); !strings.Contains(string(b), "second task 1") {
		t.Fatalf("the second write is not in the session's own directory: %q", b)
	}
	if entries, _ := os.ReadDir(victim); len(entries) != 2 {
		t.Fatalf("files left in the other directory: %v", entries)
	}
}
