package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzScan reads any bytes as a session file, whatever its format (the
// seeds are the starts of every fixture the real CLIs wrote: Claude Code,
// Codex, Gemini CLI and opencode transcripts and exports, todo-shell's
// files): no panic, the versions numbered 1, 2, 3… in order, each with
// items whose statuses are the three a panel knows.
func FuzzScan(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 8<<10)]) // the mutator is slow on long inputs
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Parser
		n := 0
		_ = Scan(bytes.NewReader(data), &p, func(e Event) {
			if e.Kind != KindVersion {
				return
			}
			n++
			if e.Version.N != n {
				t.Fatalf("version %d numbered %d", n, e.Version.N)
			}
			for _, it := range e.Version.Todos {
				switch it.Status {
				case "pending", "in_progress", "completed":
				default:
					t.Fatalf("version %d: item %q has status %q", n, it.Content, it.Status)
				}
			}
		}, nil)
	})
}
