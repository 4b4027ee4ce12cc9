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

// TestReplaySaysOneMoreUnreadableLine: two unreadable lines before the
// first record are reported as the first and "1 more unreadable line".
func TestReplaySaysOneMoreUnreadableLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "todos.jsonl")
	rec := `{"version":1,"time":"2026-01-01T00:00:00Z","tool_use_id":"toolu_1","todos":[{"content":"a","status":"pending","activeForm":"a"}]}` + "\n"
	if err := os.WriteFile(file, []byte("not json\nnot json either\n"+rec), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "replay", "--summary", file)
	if r.code != 0 || !strings.Contains(r.stderr, ": 1 more unreadable line before the first record\n") {
		t.Fatalf("replay --summary: %+v", r)
	}
}
