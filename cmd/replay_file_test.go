package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayFile: replay's argument as a file, a session directory or a
// session id; a directory with nothing to replay is refused.
func TestReplayFile(t *testing.T) {
	off := t.TempDir()
	both := filepath.Join(off, "both")
	plans := filepath.Join(off, "plans")
	empty := filepath.Join(off, "empty")
	for _, d := range []string{both, plans, empty} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(both, "transcript.jsonl"), filepath.Join(both, "todos.jsonl"), filepath.Join(plans, "todos.jsonl")} {
		if err := os.WriteFile(f, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		arg, want, err string
	}{
		{filepath.Join(plans, "todos.jsonl"), filepath.Join(plans, "todos.jsonl"), ""},
		{both, filepath.Join(both, "transcript.jsonl"), ""},
		{"both", filepath.Join(both, "transcript.jsonl"), ""},
		{"plans", filepath.Join(plans, "todos.jsonl"), ""},
		{"nope.jsonl", "nope.jsonl", ""},
		{"empty", "", "session empty has no transcript.jsonl"},
		{empty, "", "holds only the present"},
	} {
		got, err := replayFile(tc.arg, off)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %q, %v; want %q, %q", tc.arg, got, err, tc.want, tc.err)
		}
	}
}
