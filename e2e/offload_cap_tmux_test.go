package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestTmuxRunawayOutputIsCapped: a runaway command (70 MB of `yes`) in the
// shell leaves an offload file of at most the default 64 MiB — its start,
// a line saying what was cut, its end — and the screen says what was cut
// under the preview (issue 29, item 6). Before, the file took every byte
// (`yes` for 3.5 s wrote 217 MB) and nothing was said.
func TestTmuxRunawayOutputIsCapped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tt := startTmuxIn(t, 100, 30, dir)
	tt.paste("yes | head -c 70000000")
	tt.run("send-keys", "-t", "t", "Enter")
	var scr string
	testwait.For(t, 90*time.Second, "the command's end", func() bool {
		scr = tt.all()
		return strings.Contains(scr, "[Tool result offloaded to file:") && idle(scr)
	}, func() string { return scr })
	flat := strings.ReplaceAll(tt.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t"), "\n", " ")
	for _, want := range []string{"Warning: the output (66.8 MiB, 35000000 lines) passed the 64 MiB an offload file holds (--offload-max-mib)", "cut from its middle"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the screen does not say %q:\n%s", want, scr)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".offload", "*", "toolu_*.md"))
	if len(files) != 1 {
		t.Fatalf("offload files %v", files)
	}
	info, err := os.Stat(files[0])
	if err != nil || info.Size() > 64<<20 {
		t.Fatalf("the offload file: %v %v", info, err)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	head := make([]byte, 64)
	f.Read(head)
	tail := make([]byte, 64)
	f.ReadAt(tail, info.Size()-64)
	if strings.Trim(string(head), "y\n") != "" || strings.Trim(string(tail), "y\n") != "" {
		t.Errorf("the file does not start and end with the output: %q … %q", head, tail)
	}
}
