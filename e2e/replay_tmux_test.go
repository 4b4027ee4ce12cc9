package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeJournal writes a todos.jsonl of three versions 2 s apart; the third
// drops "Write the docs" without completing it.
func writeJournal(t *testing.T, path string) {
	t.Helper()
	type item struct {
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
	}
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	versions := [][]item{
		{{"Write the parser", "in_progress", "Writing the parser"}, {"Write the docs", "pending", "Writing the docs"}, {"Add tests", "pending", "Adding tests"}},
		{{"Write the parser", "completed", "Writing the parser"}, {"Write the docs", "in_progress", "Writing the docs"}, {"Add tests", "pending", "Adding tests"}},
		{{"Write the parser", "completed", "Writing the parser"}, {"Add tests", "in_progress", "Adding tests"}},
	}
	var b strings.Builder
	for i, v := range versions {
		line, _ := json.Marshal(map[string]any{"version": i + 1, "time": start.Add(time.Duration(i) * 2 * time.Second).Format(time.RFC3339), "tool_use_id": fmt.Sprintf("toolu_%02d", i), "todos": v})
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestTmuxReplayPlaysAJournal: `replay` of a todos.jsonl whose versions are
// 2 s apart plays them with the gaps (each capped at one second), one
// panel updated in place, and the warning of an item dropped without being
// completed printed as it happens; a session's directory and its id play
// the same (issue 16, item 4). One case plays in real time and shows the
// gaps kept; the others play at --speed 100, where the gaps are 10 ms.
func TestTmuxReplayPlaysAJournal(t *testing.T) {
	t.Parallel()
	for i, size := range sizes {
		for j, form := range []string{"FILE", "DIR", "ID"} {
			realTime := i == 0 && j == 0
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], form), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				sess := filepath.Join(dir, ".offload", "s1")
				writeJournal(t, filepath.Join(sess, "todos.jsonl"))
				arg := map[string]string{"FILE": filepath.Join(sess, "todos.jsonl"), "DIR": sess, "ID": "s1"}[form]
				args := []string{"replay", arg}
				if !realTime {
					args = []string{"replay", "--speed", "100", arg}
				}
				start := time.Now()
				tt := startTmuxIn(t, size[0], size[1], dir, args...)
				all := tt.waitScreen("the end of the replay", func(s string) bool { return strings.Contains(s, "end of replay") })
				if took := time.Since(start); realTime && took < 1500*time.Millisecond {
					t.Errorf("played in %v: the two gaps of 2 s (capped at 1 s each) were not kept", took)
				}
				if n := count(all, "Tasks "); n != 1 {
					t.Errorf("%d panels, want 1 updated in place:\n%s", n, all)
				}
				if !strings.Contains(all, "! DROPPED without being completed: Write the docs") {
					t.Errorf("no warning for the dropped item:\n%s", all)
				}
				if !strings.Contains(all, "● Adding tests") || strings.Index(all, "DROPPED") > strings.Index(all, "Tasks ") {
					t.Errorf("the last panel, under the warning:\n%s", all)
				}
			})
		}
	}
}
