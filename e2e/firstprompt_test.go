package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/creack/pty"
)

// BenchmarkFirstPrompt is the time from starting the built todo-shell in a
// pseudo-terminal to its first prompt on that terminal (the target is 50
// ms). The test side answers the terminal queries Bubble Tea sends at start
// (background color, cursor position) as a terminal would.
func BenchmarkFirstPrompt(b *testing.B) {
	bin := binary
	dir := b.TempDir()
	var took []time.Duration
	for b.Loop() {
		cmd := exec.Command(bin, "--offload-dir", dir)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
		start := time.Now()
		tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
		if err != nil {
			b.Fatal(err)
		}
		var seen []byte
		buf := make([]byte, 4096)
		for !bytes.Contains(seen, []byte("❯")) {
			n, err := tty.Read(buf)
			if err != nil {
				b.Fatalf("no prompt: %v; saw %q", err, seen)
			}
			p := buf[:n]
			if bytes.Contains(p, []byte("\x1b]11;?")) {
				tty.Write([]byte("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"))
			}
			if bytes.Contains(p, []byte("\x1b[6n")) {
				tty.Write([]byte("\x1b[1;1R"))
			}
			seen = append(seen, p...)
		}
		took = append(took, time.Since(start))
		tty.Write([]byte{4}) // Ctrl+D
		cmd.Wait()
		tty.Close()
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms-to-prompt")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "max-ms-to-prompt")
}
