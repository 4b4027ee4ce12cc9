package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runIn runs todo-shell in dir with stdin and env.
func runIn(t *testing.T, dir, stdin string, env map[string]string, args ...string) result {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	code := mainWith(args, Streams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}, host{getenv: func(k string) string { return env[k] }})
	return result{code, out.String(), errOut.String()}
}

// fixtureLines is the real Claude Code transcript of internal/hold's
// fixture, its first n lines (33: up to its first stop).
func fixtureLines(t *testing.T, n int) []byte {
	t.Helper()
	b, err := os.ReadFile("../internal/hold/testdata/claude-code-2.1.332_hook.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Join(bytes.SplitAfter(b, []byte("\n"))[:n], nil)
}

func stopInput(transcript string, active bool) string {
	b, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": transcript, "cwd": "/", "prompt_id": "p1",
		"hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": "All done."})
	return string(b)
}

// TestHookStop: the stop at the fixture's "All done." is held twice with
// the reason naming both items, then let through with a note for the
// person; TODO_SHELL_HOOK_MAX_BLOCKS and --max-blocks set the cap; bad
// usage exits 1, never 2.
func TestHookStop(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	os.WriteFile(transcript, fixtureLines(t, 33), 0o600)
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state")}
	for i, want := range []string{`"decision":"block"`, `"decision":"block"`, `"systemMessage":"todo-shell: the stop goes through after 2 holds`} {
		r := runIn(t, dir, stopInput(transcript, i > 0), env, "hook")
		if r.code != 0 || !strings.Contains(r.stdout, want) || r.stderr != "" {
			t.Fatalf("stop %d: %d %q %q", i+1, r.code, r.stdout, r.stderr)
		}
		if i == 0 {
			var a struct{ Decision, Reason string }
			if err := json.Unmarshal([]byte(r.stdout), &a); err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"'Add tests' was removed while pending", "'Update the docs' is still in progress"} {
				if !strings.Contains(a.Reason, w) {
					t.Errorf("reason %q lacks %q", a.Reason, w)
				}
			}
		}
	}
	env["XDG_STATE_HOME"] = filepath.Join(dir, "state1")
	env[EnvMaxBlocks] = "1"
	if r := runIn(t, dir, stopInput(transcript, false), env, "hook"); !strings.Contains(r.stdout, `"decision":"block"`) {
		t.Fatalf("cap 1, first: %q", r.stdout)
	}
	if r := runIn(t, dir, stopInput(transcript, true), env, "hook"); strings.Contains(r.stdout, `"decision":"block"`) {
		t.Fatalf("cap 1, second: %q", r.stdout)
	}
	env["XDG_STATE_HOME"] = filepath.Join(dir, "state0")
	if r := runIn(t, dir, stopInput(transcript, false), env, "hook", "--max-blocks", "0"); r.stdout != "" || r.code != 0 {
		t.Fatalf("--max-blocks 0: %d %q", r.code, r.stdout)
	}
	// Bad usage fails with 1, no answer: to the agents a hook's 2 is a
	// held stop, with standard error as the reason.
	for _, tc := range []struct {
		name, env string
		args      []string
		want      string
	}{
		{"bad " + EnvMaxBlocks, "lots", []string{"hook"}, EnvMaxBlocks},
		{"bad --max-blocks", "", []string{"hook", "--max-blocks", "lots"}, "--max-blocks"},
		{"negative --max-blocks", "", []string{"hook", "--max-blocks", "-1"}, "--max-blocks"},
		{"unknown flag", "", []string{"hook", "--bogus"}, "--bogus"},
		{"bad --plan", "", []string{"hook", "--plan", "../x"}, "../x"},
	} {
		env[EnvMaxBlocks] = tc.env
		r := runIn(t, dir, stopInput(transcript, false), env, tc.args...)
		if r.code != ExitFailed || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: %d %q %q", tc.name, r.code, r.stdout, r.stderr)
		}
	}
}

// TestHookAnswersNothingItDoesNotKnow: another event, a session not
// started, no transcript at all: an empty answer; input that is not a
// hook's: an error (exit 1), no answer.
func TestHookAnswersNothingItDoesNotKnow(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state")}
	for _, in := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`,
		`{"hook_event_name":"SessionStart","transcript_path":"/nonexistent/s.jsonl","source":"startup"}`,
		`{"hook_event_name":"Stop","stop_hook_active":false}`,
		`{"hook_event_name":"UserPromptSubmit","transcript_path":"` + filepath.Join(dir, "none.jsonl") + `","prompt":"hi"}`,
	} {
		if r := runIn(t, dir, in, env, "hook"); r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("%s: %d %q %q", in, r.code, r.stdout, r.stderr)
		}
	}
	for _, in := range []string{"", "not json", `{"session_id":"x"}`} {
		if r := runIn(t, dir, in, env, "hook"); r.code != ExitFailed || r.stdout != "" {
			t.Errorf("%q: %d %q %q", in, r.code, r.stdout, r.stderr)
		}
	}
}

// TestHookSharedPlanContext: with TODO_SHELL_PLAN, SessionStart adds the
// plan as context, a prompt adds it again only when it changed.
func TestHookSharedPlanContext(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	env := map[string]string{"XDG_STATE_HOME": state, EnvPlan: "build"}
	journal := filepath.Join(state, "todo-shell", "plans", "build", "tasks.jsonl")
	os.MkdirAll(filepath.Dir(journal), 0o700)
	os.WriteFile(journal, []byte(`{"version":1,"time":"2026-11-28T09:00:00Z","tool":"TaskCreate","by":"codex","input":{},"set":[{"id":"1","subject":"Write the lexer","description":"","status":"pending","blocks":[],"blockedBy":[]}],"next_id":2}`+"\n"), 0o600)
	transcript := filepath.Join(dir, "s.jsonl")
	start := `{"hook_event_name":"SessionStart","session_id":"s1","transcript_path":"` + transcript + `","source":"startup"}`
	prompt := `{"hook_event_name":"UserPromptSubmit","session_id":"s1","transcript_path":"` + transcript + `","prompt":"go"}`
	r := runIn(t, dir, start, env, "hook")
	var a struct {
		Specific struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	json.Unmarshal([]byte(r.stdout), &a)
	if r.code != 0 || a.Specific.Event != "SessionStart" || !strings.Contains(a.Specific.Context, `"build"`) || !strings.Contains(a.Specific.Context, "#1 Write the lexer") {
		t.Fatalf("SessionStart: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, prompt, env, "hook"); r.stdout != "" {
		t.Fatalf("a prompt, the plan unchanged: %q", r.stdout)
	}
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"version":2,"time":"2026-11-28T09:01:00Z","tool":"TaskCreate","by":"codex","input":{},"set":[{"id":"2","subject":"Test the lexer","description":"","status":"pending","blocks":[],"blockedBy":[]}],"next_id":3}` + "\n")
	f.Close()
	if r := runIn(t, dir, prompt, env, "hook"); !strings.Contains(r.stdout, `"hookEventName":"UserPromptSubmit"`) || !strings.Contains(r.stdout, "Test the lexer") {
		t.Fatalf("a prompt, the plan changed: %q", r.stdout)
	}
}

// TestHookInstall: --install writes .claude/settings.local.json with every
// other key kept, a second run changes nothing; --print writes nothing.
func TestHookInstall(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)
	path := filepath.Join(dir, ".claude", "settings.local.json")
	os.WriteFile(path, []byte(`{"permissions":{"allow":["Bash(ls:*)"]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`), 0o600)
	r := runIn(t, dir, "", nil, "hook", "--install", "--plan", "build")
	if r.code != 0 || !strings.Contains(r.stdout, "hooks are in place") {
		t.Fatalf("%d %q %q", r.code, r.stdout, r.stderr)
	}
	b, _ := os.ReadFile(path)
	first := string(b)
	for _, w := range []string{`"Bash(ls:*)"`, `"say done"`, ` hook --plan build"`, ` statusline --plan build"`, `"UserPromptSubmit"`, `"refreshInterval": 2`} {
		if !strings.Contains(first, w) {
			t.Errorf("no %s in\n%s", w, first)
		}
	}
	r = runIn(t, dir, "", nil, "hook", "--install", "--plan", "build")
	if b, _ := os.ReadFile(path); string(b) != first || !strings.Contains(r.stdout, "nothing changed") {
		t.Fatalf("second run: %q\n%s", r.stdout, b)
	}
	if r := runIn(t, dir, "", nil, "hook", "--print", "--agent", "gemini"); !strings.Contains(r.stdout, `"AfterAgent"`) || strings.Contains(r.stdout, "statusLine") {
		t.Fatalf("--print --agent gemini: %q", r.stdout)
	}
	if b, _ := os.ReadFile(path); string(b) != first {
		t.Fatal("--print wrote the file")
	}
	if r := runIn(t, dir, "", nil, "hook", "--print", "--agent", "cursor"); r.code != ExitUsage {
		t.Fatalf("--agent cursor: %d", r.code)
	}
	if r := runIn(t, dir, "", nil, "hook", "--print", "--plan", "../x"); r.code != ExitUsage {
		t.Fatalf("--plan ../x: %d %q", r.code, r.stderr)
	}
}

// TestStatusLine: Claude Code's status line input gives one line, in
// colour unless NO_COLOR; status --transcript and --format tmux.
func TestStatusLine(t *testing.T) {
	dir := t.TempDir()
	transcript := filepath.Join(dir, "s.jsonl")
	os.WriteFile(transcript, fixtureLines(t, 33), 0o600)
	in := `{"hook_event_name":"Status","session_id":"s1","transcript_path":"` + transcript + `","cwd":"/","model":{"id":"claude-sonnet-4-5"},"workspace":{"current_dir":"/"}}`
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state")}
	r := runIn(t, dir, in, env, "statusline")
	if r.code != 0 || !strings.Contains(r.stdout, "\x1b[") || !strings.Contains(r.stdout, "Tasks ") {
		t.Fatalf("colour: %d %q %q", r.code, r.stdout, r.stderr)
	}
	env["NO_COLOR"] = "1"
	if r := runIn(t, dir, in, env, "statusline"); r.stdout != "Tasks 1/2 ▸ Updating the docs · 1 dropped\n" {
		t.Fatalf("NO_COLOR: %q", r.stdout)
	}
	if r := runIn(t, dir, "", env, "status", "--transcript", transcript, "--format", "tmux"); !strings.Contains(r.stdout, "#[fg=colour220,bold]Updating the docs#[default]") {
		t.Fatalf("tmux: %q", r.stdout)
	}
	if r := runIn(t, dir, "", env, "status", "--claude", dir); r.code != 0 || r.stdout != "" {
		t.Fatalf("no session: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := runIn(t, dir, "", env, "status", "--claude", dir, "--transcript", transcript); r.code != ExitUsage {
		t.Fatalf("two sources: %d", r.code)
	}
	if r := runIn(t, dir, "", env, "status", "--transcript", transcript, "--format", "html"); r.code != ExitUsage {
		t.Fatalf("--format html: %d", r.code)
	}
}

// TestHookSubagentStop: SubagentStop reads the sub-agent's own transcript
// (agent_transcript_path, its records marked isSidechain), not the
// session's.
func TestHookSubagentStop(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.jsonl")
	os.WriteFile(main, fixtureLines(t, 3), 0o600)
	agent := filepath.Join(dir, "subagents", "agent-a1.jsonl")
	os.MkdirAll(filepath.Dir(agent), 0o700)
	os.WriteFile(agent, []byte(strings.Join([]string{
		`{"isSidechain":true,"agentId":"a1","type":"user","message":{"role":"user","content":"Look around"},"uuid":"u1","timestamp":"2026-11-28T09:00:00.000Z"}`,
		`{"isSidechain":true,"agentId":"a1","type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"List the files","status":"in_progress","activeForm":"Listing the files"}]}}]},"timestamp":"2026-11-28T09:00:01.000Z"}`,
		`{"isSidechain":true,"agentId":"a1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"timestamp":"2026-11-28T09:00:02.000Z"}`,
	}, "\n")+"\n"), 0o600)
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "transcript_path": main, "hook_event_name": "SubagentStop",
		"stop_hook_active": false, "agent_id": "a1", "agent_transcript_path": agent, "agent_type": "general-purpose"})
	r := runIn(t, dir, string(in), map[string]string{"XDG_STATE_HOME": filepath.Join(dir, "state")}, "hook")
	if r.code != 0 || !strings.Contains(r.stdout, `"decision":"block"`) || !strings.Contains(r.stdout, "'List the files' is still in progress") {
		t.Fatalf("%d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestStatusSources: status shows the same line for each source it takes:
// the newest Claude Code session of a directory (an older one beside it
// is not shown), a shared plan, a todo-shell session; a source with
// nothing in it prints nothing.
func TestStatusSources(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	config := filepath.Join(dir, "claude")
	app := filepath.Join(dir, "app")
	os.MkdirAll(app, 0o700)
	env := map[string]string{"XDG_STATE_HOME": state, "CLAUDE_CONFIG_DIR": config, "NO_COLOR": "1"}

	// Claude Code keeps the sessions of app in projects/<app, every
	// character not a letter or digit a dash>.
	project := filepath.Join(config, "projects", strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '-'
	}, app))
	os.MkdirAll(project, 0o700)
	older := filepath.Join(project, "older.jsonl")
	os.WriteFile(older, fixtureLines(t, 3), 0o600)
	os.Chtimes(older, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	os.WriteFile(filepath.Join(project, "newer.jsonl"), fixtureLines(t, 33), 0o600)

	journal := filepath.Join(state, "todo-shell", "plans", "build", "tasks.jsonl")
	os.MkdirAll(filepath.Dir(journal), 0o700)
	os.WriteFile(journal, []byte(`{"version":1,"time":"2026-11-28T09:00:00Z","tool":"TaskCreate","by":"codex","input":{},"set":[{"id":"1","subject":"Write the lexer","description":"","activeForm":"Writing the lexer","status":"in_progress","blocks":[],"blockedBy":[]},{"id":"2","subject":"Test the lexer","description":"","status":"pending","blocks":[],"blockedBy":[]}],"next_id":3}`+"\n"), 0o600)

	offloads := filepath.Join(dir, "off")
	if r := runIn(t, dir, "", env, "--offload-dir", offloads, "--session", "s-1", "-c",
		`TodoWrite '{"todos":[{"content":"Run tests","activeForm":"Running tests","status":"completed"},{"content":"Fix the build","activeForm":"Fixing the build","status":"pending"}]}'`); r.code != 0 {
		t.Fatalf("the todo-shell session: %d %q %q", r.code, r.stdout, r.stderr)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"--claude", []string{"--claude", app}, "Tasks 1/2 ▸ Updating the docs · 1 dropped\n"},
		{"--plan", []string{"--plan", "build"}, "Tasks 0/2 ▸ #1 Writing the lexer\n"},
		{"--session", []string{"--session", "s-1", "--offload-dir", offloads}, "Tasks 1/2 ▸ next: Fix the build\n"},
		{"--claude, no session", []string{"--claude", dir}, ""},
		{"--plan, no such plan", []string{"--plan", "none"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, dir, "", env, append([]string{"status"}, tc.args...)...)
			if r.code != 0 || r.stdout != tc.want || r.stderr != "" {
				t.Errorf("%d %q %q, want %q", r.code, r.stdout, r.stderr, tc.want)
			}
		})
	}
}
