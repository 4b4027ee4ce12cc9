package repl

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFaultPlantedOffloadFiles: /offloads counts the lines of each result;
// a result that is a link to /dev/zero or a FIFO is not read (no endless
// count, no block).
func TestFaultPlantedOffloadFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.md"), []byte("a\nb\n"), 0o600)
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.md"))
	syscall.Mkfifo(filepath.Join(dir, "fifo.md"), 0o600)
	done := make(chan map[string]int, 1)
	go func() {
		entries, _ := listOffloads(dir, nil)
		countOffloadLines(entries)
		lines := map[string]int{}
		for _, e := range entries {
			lines[filepath.Base(e.Path)] = e.Lines
		}
		done <- lines
	}()
	select {
	case lines := <-done:
		if lines["good.md"] != 2 || lines["zero.md"] != 0 || lines["fifo.md"] != 0 {
			t.Fatalf("lines %v", lines)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("counting the lines of a planted file did not end")
	}
}
