package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/follow"
)

// TestReplayClaudeCode2_1_330 replays the sessions the real Claude Code
// 2.1.330 wrote (internal/plan/testdata/claude-code-2.1.330_*.jsonl).
func TestReplayClaudeCode2_1_330(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // substrings, in order
		not  []string
	}{
		{"claude-code-2.1.330_tasks.jsonl", []string{
			"v4  09:21:30 (+0:01)  0/3 done, 1 in progress, 2 pending  toolu_0003_0",
			"    · #1 owner main",
			"v5 ", "    · #2 blocked by #1",
			// The results of message 4 came 2, 3, 1: applied 1, 2, 3.
			"v6 ", "toolu_0004_0", "✓ completed  Write the parser",
			"v7 ", "toolu_0004_1", "v8 ", "1/3 done, 2 in progress, 0 pending  toolu_0004_2",
			"v9 ", "~ renamed    #2: Write tests → Write unit tests",
			"v10 ", "! DROPPED without being completed: Update the docs",
			"11 versions; 1 item dropped without being completed; 0 versions break a rule",
		}, []string{"breaks a rule", "toolu_0005_1"}},
		{"claude-code-2.1.330_todowrite.jsonl", []string{
			"v2 ", "~ renamed    Write tests → Write unit tests", "! breaks a rule: Only one todo can be in_progress",
			"v3 ", "! DROPPED without being completed: Update the docs",
			"3 versions; 1 item dropped",
		}, []string{"+ added      Write unit tests"}},
		{"claude-code-2.1.330_mcp.jsonl", []string{
			"v2 ", "the plan was kept by todo-shell over MCP (mcp__todo-shell__TodoWrite)", "2 versions",
		}, nil},
		{"claude-code-2.1.330_default.jsonl", []string{
			"no plan versions in 28 lines", noPlanText,
		}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := run(t, "", nil, "replay", fixture(t, tc.file))
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			rest := r.stdout
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (in order) %q in:\n%s", w, r.stdout)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range tc.not {
				if strings.Contains(r.stdout, n) {
					t.Errorf("%q in:\n%s", n, r.stdout)
				}
			}
		})
	}
	r := run(t, "", nil, "replay", "--json", fixture(t, "claude-code-2.1.330_tasks.jsonl"))
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 11 || !strings.Contains(lines[8], `"renamed":[{"from":"Write tests","to":"Write unit tests","id":"2"}]`) ||
		!strings.Contains(lines[4], `"notes":["#2 blocked by #1"]`) || !strings.Contains(lines[4], `{"id":"2","owner":"","description":"Cover the parser","blocks":[],"blocked_by":["1"]}`) {
		t.Errorf("json:\n%s", r.stdout)
	}
}

// TestWatchClaudeCode2_1_330 shows a task list with owners and blockers,
// and says once that a default session keeps no plan.
func TestWatchClaudeCode2_1_330(t *testing.T) {
	home := t.TempDir()
	src := filepath.Join(home, "src")
	project := follow.ClaudeProjectDir(filepath.Join(home, ".claude", "projects"), src)
	os.MkdirAll(project, 0o700)
	data, _ := os.ReadFile(fixture(t, "claude-code-2.1.330_tasks.jsonl"))
	lines := strings.SplitAfter(string(data), "\n")
	// Up to version 5: task 2 blocked by task 1, which main owns.
	os.WriteFile(filepath.Join(project, "s.jsonl"), []byte(strings.Join(lines[:43], "")), 0o600)
	r := run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--claude", src)
	if r.code != 0 || !strings.Contains(r.stdout, "● #1 Writing the parser · @main") || !strings.Contains(r.stdout, "○ #2 Write tests · blocked by #1") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	data, _ = os.ReadFile(fixture(t, "claude-code-2.1.330_default.jsonl"))
	os.WriteFile(filepath.Join(project, "s.jsonl"), data, 0o600)
	r = run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--claude", src)
	if r.code != 0 || strings.TrimSpace(r.stdout) != noPlanText {
		t.Fatalf("exit %d\n%q\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchOnceNoSession: watch --once with no session of the agent for
// DIR says so in one sentence that names where it looked, with no Go
// error, and exits 1 for each of the four agents, whether where it looks
// is missing or holds no session of DIR; --json too.
func TestWatchOnceNoSession(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	os.MkdirAll(project, 0o700)
	withOther := t.TempDir() // each agent's place exists, with nothing of project
	os.MkdirAll(filepath.Join(withOther, ".codex", "sessions", "2026", "11", "25"), 0o700)
	data, _ := os.ReadFile(fixture(t, "codex-0.169.0_rollout.jsonl"))
	os.WriteFile(filepath.Join(withOther, ".codex", "sessions", "2026", "11", "25", "rollout-other.jsonl"), data, 0o600)
	os.MkdirAll(follow.ClaudeProjectDir(filepath.Join(withOther, ".claude", "projects"), project), 0o700)
	os.MkdirAll(follow.GeminiChatsDir(filepath.Join(withOther, ".gemini"), project), 0o700)
	for _, tc := range []struct {
		flag, agent, where string
	}{
		{"--claude", "Claude Code", follow.ClaudeProjectDir(filepath.Join(home, ".claude", "projects"), project)},
		{"--codex", "Codex", filepath.Join(home, ".codex", "sessions")},
		{"--gemini", "Gemini CLI", follow.GeminiChatsDir(filepath.Join(home, ".gemini"), project)},
		{"--opencode", "opencode", filepath.Join(home, ".local", "share", "opencode", "opencode.db")},
	} {
		for _, h := range []string{home, withOther} {
			for _, extra := range [][]string{nil, {"--json"}} {
				args := append([]string{"watch", "--once", tc.flag, project}, extra...)
				r := run(t, "", map[string]string{"HOME": h}, args...)
				want := "todo-shell: watch: no " + tc.agent + " session of " + project + " found (looked in " + strings.Replace(tc.where, home, h, 1) + ")\n"
				if r.code != 1 || r.stdout != "" || r.stderr != want {
					t.Errorf("%v (HOME %s): exit %d\nstdout %q\nstderr %q\nwant   %q", args, h, r.code, r.stdout, r.stderr, want)
				}
			}
		}
	}
}

// TestReplayAgents replays the session files real Codex, Gemini CLI and
// opencode wrote, and watches them once (opencode's from its database).
func TestReplayAgents(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"codex-0.169.0_rollout.jsonl", []string{"(Codex rollout)", "v2 ", "~ renamed    Write tests → Write unit tests",
			"v3 ", "! DROPPED without being completed: Update the docs", "3 versions; 1 item dropped without being completed; 0 versions break a rule"}},
		{"gemini-cli-0.61.0_session.jsonl", []string{"(Gemini CLI session)", "v2 ", "~ renamed    Write tests → Write unit tests",
			"v3 ", "! DROPPED without being completed: Update the docs", "4 versions; 1 item dropped"}},
		{"opencode-1.18.33_export.json", []string{"(opencode session export)", "v2 ", "~ renamed    Write tests → Write unit tests",
			"v3 ", "! DROPPED without being completed: Update the docs", "3 versions; 1 item dropped"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := run(t, "", nil, "replay", fixture(t, tc.file))
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			rest := r.stdout
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (in order) %q in:\n%s", w, r.stdout)
				}
				rest = rest[i+len(w):]
			}
		})
	}

	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	codexDay := filepath.Join(home, ".codex", "sessions", "2026", "11", "25")
	os.MkdirAll(codexDay, 0o700)
	data, _ := os.ReadFile(fixture(t, "codex-0.169.0_rollout.jsonl"))
	os.WriteFile(filepath.Join(codexDay, "rollout-a.jsonl"), []byte(strings.ReplaceAll(string(data), "/tmp/rec/p-codex", project)), 0o600)
	os.WriteFile(filepath.Join(codexDay, "rollout-other.jsonl"), data, 0o600) // another project's
	os.MkdirAll(filepath.Join(home, ".gemini", "tmp", "app", "chats"), 0o700)
	os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(`{"projects":{"`+project+`":"app"}}`), 0o600)
	data, _ = os.ReadFile(fixture(t, "gemini-cli-0.61.0_session.jsonl"))
	os.WriteFile(filepath.Join(home, ".gemini", "tmp", "app", "chats", "session-a.jsonl"), data, 0o600)
	for _, flag := range []string{"--codex", "--gemini"} {
		r := run(t, "", map[string]string{"HOME": home}, "watch", "--once", flag, project)
		if r.code != 0 || !strings.Contains(r.stdout, "Tasks 2/2") || !strings.Contains(r.stdout, "✓ Write unit tests") {
			t.Errorf("%s: exit %d\n%s\n%s", flag, r.code, r.stdout, r.stderr)
		}
	}
	r := run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--opencode", project)
	if r.code != 1 || !strings.Contains(r.stderr, "no opencode session of "+project+" found") {
		t.Errorf("--opencode, no database: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// opencode's database, the session's rows still in the -wal file.
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to make an opencode database with")
	}
	db := filepath.Join(home, ".local", "share", "opencode", "opencode.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	if out, err := exec.Command(py, "../internal/opencodedb/testdata/mkdb.py", db, "--keep-wal", "--sessions", "3", "--directory", project).CombinedOutput(); err != nil {
		t.Fatalf("mkdb.py: %v\n%s", err, out)
	}
	r = run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--opencode", project)
	if r.code != 0 || !strings.Contains(r.stdout, "Tasks 2/2") || !strings.Contains(r.stdout, "✓ Write unit tests") {
		t.Errorf("--opencode: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchClaudeTasks shows a task-list directory (the one the real Claude
// Code 2.1.330 wrote), by id under ~/.claude/tasks, by path, and by
// CLAUDE_CODE_TASK_LIST_ID; replay of a list says it cannot be replayed.
func TestWatchClaudeTasks(t *testing.T) {
	home := t.TempDir()
	list := filepath.Join(home, ".claude", "tasks", "team")
	os.MkdirAll(list, 0o700)
	for _, n := range []string{"1.json", "2.json", ".lock", ".highwatermark"} {
		b, _ := os.ReadFile(fixture(t, filepath.Join("claude-code-2.1.330_tasklist", n)))
		os.WriteFile(filepath.Join(list, n), b, 0o600)
	}
	for _, args := range [][]string{
		{"watch", "--once", "--claude-tasks", "team"},
		{"watch", "--once", "--claude-tasks", list},
	} {
		r := run(t, "", map[string]string{"HOME": home}, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "✓ #1 Write the parser · @main") || !strings.Contains(r.stdout, "Tasks 2/2") {
			t.Errorf("%q: exit %d\n%s\n%s", args, r.code, r.stdout, r.stderr)
		}
	}
	r := run(t, "", map[string]string{"HOME": home, "CLAUDE_CODE_TASK_LIST_ID": "team"}, "watch", "--once", "--json", "--claude-tasks")
	if r.code != 0 || !strings.Contains(r.stdout, `"tasks":[{"id":"1","owner":"main"`) {
		t.Errorf("env: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, "", map[string]string{"HOME": home}, "watch", "--once", "--claude-tasks", "../x")
	if r.code == 0 {
		t.Errorf("a list id with a path in it: %s", r.stdout)
	}
	r = run(t, "", nil, "replay", list)
	if r.code != 1 || !strings.Contains(r.stderr, "holds only the present") {
		t.Errorf("replay of a list: exit %d %s", r.code, r.stderr)
	}
}
