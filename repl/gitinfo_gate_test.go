package repl

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFaultPlantedHead: a .git/HEAD that is a FIFO or a link to /dev/zero
// gives no branch, at once, instead of a prompt that never comes.
func TestFaultGitPlantedHead(t *testing.T) {
	for _, kind := range []string{"fifo", "link"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, ".git"), 0o700)
			head := filepath.Join(dir, ".git", "HEAD")
			if kind == "fifo" {
				syscall.Mkfifo(head, 0o600)
			} else {
				os.Symlink("/dev/zero", head)
			}
			done := make(chan string, 1)
			go func() { done <- gitBranch(dir) }()
			select {
			case b := <-done:
				if b != "" {
					t.Fatalf("branch %q", b)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("reading HEAD did not end")
			}
		})
	}
}
