package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is the absolute path of an internal/plan/testdata file (run changes the
// working directory).
func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "internal", "plan", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReplay(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr []string // substrings, in order
	}{
		{"summary when stdout is not a terminal", []string{"replay", "claude_dropped.jsonl"}, 0, []string{
			"(Claude Code transcript), from 2025-07-01 10:00:01 UTC",
			"v1  10:00:01  0/4 done, 1 in progress, 3 pending  toolu_02A (line 4)",
			"    + added      Run the suite 50 times",
			"v2  10:00:31 (+0:30)  1/4 done, 2 in progress, 1 pending",
			"    ! breaks a rule: Only one todo can be in_progress at a time (found 2)",
			"v3  10:00:50 (+0:49)  3/3 done",
			"    ! DROPPED without being completed: Run the suite 50 times",
			"3 versions; 1 item dropped without being completed; 1 version breaks a rule",
		}, nil},
		{"1.x shape", []string{"replay", "--summary", "claude_1x.jsonl"}, 0, []string{
			"v1  10:00:03  0/3 done, 1 in progress, 2 pending  toolu_01A",
			"v3  10:00:55 (+0:52)  3/3 done",
			"3 versions; 0 items dropped without being completed; 0 versions break a rule",
		}, nil},
		{"tasks", []string{"replay", "claude_tasks.jsonl"}, 0, []string{
			"v1  10:00:01  0/1 done",
			"v7  10:00:40 (+0:39)  1/2 done, 1 in progress, 0 pending  toolu_03G",
			"    ! DROPPED without being completed: Post to the forum",
			"v8  10:00:41 (+0:40)  2/2 done",
			"    ✓ completed  Draft the release notes",
			"8 versions; 1 item dropped without being completed",
		}, nil},
		{"todo-shell transcript", []string{"replay", "shell_transcript.jsonl"}, 0, []string{
			"(todo-shell transcript), from 2026-11-20 09:00:02 UTC",
			"3 versions",
		}, nil},
		{"limits flags count", []string{"replay", "--max-items", "2", "claude_1x.jsonl"}, 0, []string{
			"! breaks a rule: Too many todos: 3 (max 2)",
		}, nil},
		{"not a transcript", []string{"replay", "not_a_transcript.txt"}, 1, nil, []string{
			"not_a_transcript.txt is not a transcript: no line is a record of todo-shell, Claude Code, Codex, Gemini CLI or opencode (", "not_a_transcript.txt:1: not a JSON record",
		}},
		{"bad line named, rest read", []string{"replay", "bad_line.jsonl"}, 0, []string{"2 versions"}, []string{
			"bad_line.jsonl:2: not a JSON record",
		}},
		{"missing file", []string{"replay", "nope.jsonl"}, 1, nil, []string{"nope.jsonl cannot be read:", "no such file"}},
		{"bad speed", []string{"replay", "--speed", "0", "todos.jsonl"}, 2, nil, []string{"--speed must be more than 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string(nil), tc.args...)
			last := len(args) - 1
			args[last] = fixture(t, args[last])
			r := run(t, "", nil, args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, pair := range []struct {
				got  string
				want []string
			}{{r.stdout, tc.stdout}, {r.stderr, tc.stderr}} {
				rest := pair.got
				for _, w := range pair.want {
					i := strings.Index(rest, w)
					if i < 0 {
						t.Fatalf("missing (in order) %q in:\n%s", w, pair.got)
					}
					rest = rest[i+len(w):]
				}
			}
		})
	}
}

func TestReplayJSON(t *testing.T) {
	r := run(t, "", nil, "replay", "--json", fixture(t, "claude_dropped.jsonl"))
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), r.stdout)
	}
	var v struct {
		Version   int                 `json:"version"`
		Time      string              `json:"time"`
		ToolUseID string              `json:"tool_use_id"`
		Todos     []map[string]string `json:"todos"`
		Added     []string            `json:"added"`
		Started   []string            `json:"started"`
		Completed []string            `json:"completed"`
		Dropped   []string            `json:"dropped"`
		Problems  []string            `json:"problems"`
	}
	dec := json.NewDecoder(strings.NewReader(lines[2]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Version != 3 || v.ToolUseID != "toolu_02E" || len(v.Todos) != 3 || v.Dropped[0] != "Run the suite 50 times" ||
		len(v.Completed) != 2 || v.Problems == nil || v.Added == nil || v.Time != "2025-07-01T10:00:50Z" {
		t.Errorf("%+v", v)
	}
}

func TestWatchOnce(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join(home, "src", "my_app.v2")
	// Every character but an ASCII letter or digit becomes "-".
	project := filepath.Join(home, ".claude", "projects", strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '-'
	}, src))
	if err := os.MkdirAll(project, 0o700); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(fixture(t, "claude_tasks.jsonl"))
	os.WriteFile(filepath.Join(project, "abc.jsonl"), data, 0o600)

	r := run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--claude", src)
	if r.code != 0 || !strings.Contains(r.stdout, "Tasks 2/2") || !strings.Contains(r.stdout, "✓ #2 Draft the release notes") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--json", "--claude", src)
	if !strings.HasPrefix(r.stdout, `{"version":8,`) || !strings.Contains(r.stdout, `"completed":["Draft the release notes"]`) {
		t.Fatalf("%s\n%s", r.stdout, r.stderr)
	}
	// CLAUDE_CONFIG_DIR moves the root.
	r = run(t, "", map[string]string{"HOME": "/nowhere", "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude")}, "watch", "--once", "--claude", src)
	if r.code != 0 || !strings.Contains(r.stdout, "Tasks 2/2") {
		t.Fatalf("CLAUDE_CONFIG_DIR: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	// A todo-shell session, and the waiting line for an empty one.
	off := t.TempDir()
	os.MkdirAll(filepath.Join(off, "s1"), 0o700)
	r = run(t, "", nil, "watch", "--once", "--offload-dir", off)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "waiting for a plan…" {
		t.Fatalf("exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	data, _ = os.ReadFile(fixture(t, "todos.jsonl"))
	os.WriteFile(filepath.Join(off, "s1", "todos.jsonl"), data, 0o600)
	r = run(t, "", nil, "watch", "--once", "--offload-dir", off, "s1")
	if r.code != 0 || !strings.Contains(r.stdout, "● Adding tests") {
		t.Fatalf("exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", nil, "watch", "--once", "--offload-dir", filepath.Join(off, "none"))
	if r.code != 1 || !strings.Contains(r.stderr, "watch: no sessions in") {
		t.Fatalf("missing dir: exit %d %q", r.code, r.stderr)
	}
}

// TestWatchOnceMissingSession: asked once about a session that is not
// there, watch says so and fails instead of showing an empty plan.
func TestWatchOnceMissingSession(t *testing.T) {
	dir := t.TempDir()
	r := run(t, "", nil, "watch", "--once", "nosuch", "--offload-dir", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "no session nosuch in "+dir) {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
}
