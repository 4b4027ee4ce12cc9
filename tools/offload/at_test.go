//go:build linux

package offload

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFaultOSFSRefusesADirectorySwappedForALink: a session directory
// replaced by a link after its checks (what the owner of a shared root
// could do between two writes): creating and renaming relative to it
// refuse the link, and the directory it points to gets nothing.
func TestFaultOSFSRefusesADirectorySwappedForALink(t *testing.T) {
	t.Parallel()
	root, victim := t.TempDir(), t.TempDir()
	dir, err := SessionDir(root, "s")
	if err != nil {
		t.Fatal(err)
	}
	f, err := OSFS{}.CreateTemp(dir, ".tmp-")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Swap: the session directory moves away, a link to victim takes its
	// place, and victim holds a file of the same name as the temporary one.
	os.Rename(dir, filepath.Join(root, "moved"))
	os.Symlink(victim, dir)
	os.WriteFile(filepath.Join(victim, filepath.Base(f.Name())), []byte("planted"), 0o600)
	if _, err := (OSFS{}).CreateTemp(dir, ".tmp-"); err == nil {
		t.Fatal("created a file through the link")
	}
	if err := (OSFS{}).Rename(f.Name(), filepath.Join(dir, "toolu_1.md")); err == nil {
		t.Fatal("renamed through the link")
	}
	entries, _ := os.ReadDir(victim)
	if len(entries) != 1 {
		t.Fatalf("the linked directory holds %v", entries)
	}
}
