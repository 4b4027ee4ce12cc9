package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The Stop hook with the real Claude Code (npm @anthropic-ai/claude-code,
// the version .ci/run pins) in print mode: its settings in a fresh HOME are
// what `todo-shell hook --print` prints, and the fake API plays the model.
// What the hook answered is read where it matters: in the next request
// Claude Code sends the model.

// turn is one scripted model turn: blocks {"text":…} or {"tool":…,"input":…}.
type turn []map[string]any

func text(s string) turn { return turn{{"text": s}} }

func call(tool string, input string) map[string]any {
	return map[string]any{"tool": tool, "input": json.RawMessage(input)}
}

func todos(items ...string) string {
	var parts []string
	for _, it := range items {
		content, status, _ := strings.Cut(it, "=")
		status = map[string]string{"p": "pending", "i": "in_progress", "c": "completed"}[status]
		parts = append(parts, fmt.Sprintf(`{"content":%q,"status":%q,"activeForm":%q}`, content, status, "Doing "+content))
	}
	return `{"todos":[` + strings.Join(parts, ",") + `]}`
}

// claudeScenario is a scenario for Claude Code with todo-shell's hooks (and
// status line) in its user settings.
func claudeScenario(t *testing.T, script []turn, env ...string) *cliScenario {
	t.Helper()
	claude := agentCLI(t, "TODO_SHELL_CLAUDE", "claude", "@anthropic-ai/claude-code")
	s := newCLIScenario(t, script)
	settings, err := exec.Command(binary, "hook", "--print").Output()
	if err != nil {
		t.Fatal(err)
	}
	s.write("home/.claude/settings.json", string(settings))
	s.run.Command = []string{claude}
	s.run.Env = append([]string{
		"HOME=" + s.home, "CLAUDE_CONFIG_DIR=" + filepath.Join(s.home, ".claude"), "XDG_STATE_HOME=" + s.state,
		"ANTHROPIC_BASE_URL={{URL}}", "ANTHROPIC_API_KEY=sk-ant-fake-key-0123456789abcdef",
		"IS_SANDBOX=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_ENABLE_TODO_TOOLS=1", "ENABLE_TOOL_SEARCH=false",
		"TODO_SHELL_PLAN=", "TODO_SHELL_HOOK_MAX_BLOCKS=", "NO_COLOR=",
	}, env...)
	return s
}

// print runs Claude Code in print mode on prompt with args, to its end.
func (s *cliScenario) print(prompt string, args ...string) string {
	s.t.Helper()
	s.run.Command = append(append(s.run.Command, "-p", prompt, "--output-format", "json", "--model", "claude-sonnet-4-5"), args...)
	out, err := s.exec()
	if err != nil {
		s.t.Fatalf("claude: %v\n%s", err, out)
	}
	return out
}

const heldMark = "todo-shell holds this stop"

// held reports which of the requests carry a held stop's reason.
func held(reqs []apiRequest) []int {
	var out []int
	for i, r := range reqs {
		if strings.Contains(r.last(), heldMark) {
			out = append(out, i)
		}
	}
	return out
}

func dump(reqs []apiRequest) string {
	var b strings.Builder
	for i, r := range reqs {
		last := r.last()
		if len(last) > 600 {
			last = last[:600] + "…"
		}
		fmt.Fprintf(&b, "request %d: %s\n", i+1, last)
	}
	return b.String()
}

// TestRealClaudeCodeStopHookTodoWrite: the model writes a plan of three,
// completes one, drops one silently and tries to end its turn; the hook
// holds the stop and the next request names both items; the model then
// completes them and the stop goes through.
func TestRealClaudeCodeStopHookTodoWrite(t *testing.T) {
	t.Parallel()
	s := claudeScenario(t, []turn{
		{call("TodoWrite", todos("Write the parser=i", "Add tests=p", "Update the docs=p"))},
		{call("TodoWrite", todos("Write the parser=c", "Update the docs=i"))},
		text("All done."),
		{call("TodoWrite", todos("Write the parser=c", "Add tests=c", "Update the docs=c"))},
		text("Now all done."),
	}, "CLAUDE_CODE_ENABLE_TASKS=0")
	out := s.print("Write a parser")
	reqs := s.requests()
	if len(reqs) != 5 || !equalInts(held(reqs), []int{3}) {
		t.Fatalf("%d requests, held at %v, want 5 and [3]:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
	}
	for _, w := range []string{"'Add tests' was removed while pending", "'Update the docs' is still in progress", "1 of at most 2"} {
		if !strings.Contains(reqs[3].last(), jsonString(w)) {
			t.Errorf("the request after the stop lacks %q:\n%s", w, reqs[3].last())
		}
	}
	var result struct{ Result string }
	json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &result)
	if result.Result != "Now all done." {
		t.Errorf("result %q", result.Result)
	}
}

// TestRealClaudeCodeNeverFinishes: a model that never finishes is held
// exactly N times, then let go: 2 by default, 3 with
// TODO_SHELL_HOOK_MAX_BLOCKS=3, 1 with --max-blocks 1 in the hook's
// command (the settings `hook --print --max-blocks 1` prints).
func TestRealClaudeCodeNeverFinishes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		n     int
		env   string
		print []string
	}{
		{"default", 2, "", nil},
		{"env", 3, "TODO_SHELL_HOOK_MAX_BLOCKS=3", nil},
		{"flag", 1, "", []string{"--max-blocks", "1"}},
	} {
		n := tc.n
		t.Run(tc.name, func(t *testing.T) {
			env := []string{"CLAUDE_CODE_ENABLE_TASKS=0"}
			if tc.env != "" {
				env = append(env, tc.env)
			}
			// After the plan, the script is over: the fake API says
			// "Done." to every request.
			s := claudeScenario(t, []turn{{call("TodoWrite", todos("Write the parser=i", "Add tests=p"))}}, env...)
			if tc.print != nil {
				settings, err := exec.Command(binary, append([]string{"hook", "--print"}, tc.print...)...).Output()
				if err != nil || !strings.Contains(string(settings), " hook --max-blocks 1") {
					t.Fatalf("hook --print %v: %v\n%s", tc.print, err, settings)
				}
				s.write("home/.claude/settings.json", string(settings))
			}
			out := s.print("Write a parser")
			reqs := s.requests()
			want := []int{}
			for i := 0; i < n; i++ {
				want = append(want, 2+i)
			}
			if len(reqs) != 2+n || !equalInts(held(reqs), want) {
				t.Fatalf("%d requests, held at %v, want %d and %v:\n%s\n%s", len(reqs), held(reqs), 2+n, want, dump(reqs), out)
			}
			if last := reqs[len(reqs)-1].last(); !strings.Contains(last, fmt.Sprintf("%d of at most %d", n, n)) {
				t.Errorf("the last hold: %s", last)
			}
		})
	}
}

// TestRealClaudeCodeStopHookTaskTools: the same with Claude Code's Task
// tools (its default): a task deleted while pending and one left pending
// are named; re-created and completed, the stop goes through.
func TestRealClaudeCodeStopHookTaskTools(t *testing.T) {
	t.Parallel()
	s := claudeScenario(t, []turn{
		{call("TaskCreate", `{"subject":"Write the parser","description":"The config format","activeForm":"Writing the parser"}`),
			call("TaskCreate", `{"subject":"Write tests","description":"Cover the parser","activeForm":"Writing tests"}`),
			call("TaskCreate", `{"subject":"Update the docs","description":"Describe the format","activeForm":"Updating the docs"}`)},
		{call("TaskUpdate", `{"taskId":"1","status":"in_progress"}`)},
		{call("TaskUpdate", `{"taskId":"1","status":"completed"}`), call("TaskUpdate", `{"taskId":"3","status":"deleted"}`)},
		text("All done."),
		{call("TaskCreate", `{"subject":"Update the docs","description":"Describe the format","activeForm":"Updating the docs"}`)},
		{call("TaskUpdate", `{"taskId":"2","status":"completed"}`), call("TaskUpdate", `{"taskId":"4","status":"completed"}`)},
		text("Now all done."),
	})
	out := s.print("Write a parser")
	reqs := s.requests()
	if len(reqs) != 7 || !equalInts(held(reqs), []int{4}) {
		t.Fatalf("%d requests, held at %v, want 7 and [4]:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
	}
	for _, w := range []string{"task #3 'Update the docs' was deleted while pending", "task #2 'Write tests' is still pending"} {
		if !strings.Contains(reqs[4].last(), jsonString(w)) {
			t.Errorf("the request after the stop lacks %q:\n%s", w, reqs[4].last())
		}
	}
}

// TestRealClaudeCodeStopHookSharedPlan: a shared plan over MCP (todo-shell
// mcp --plan NAME; the hook with TODO_SHELL_PLAN=NAME): the plan is given
// at the session's start, and the stop is held for the tasks the agent
// created and left, named with the plan.
func TestRealClaudeCodeStopHookSharedPlan(t *testing.T) {
	t.Parallel()
	plan := fmt.Sprintf("hook-%d", os.Getpid())
	mcp := func(tool, input string) map[string]any { return call("mcp__todo-shell__"+tool, input) }
	s := claudeScenario(t, []turn{
		{mcp("TaskCreate", `{"subject":"Write the parser","description":"The config format","activeForm":"Writing the parser"}`)},
		{mcp("TaskCreate", `{"subject":"Write tests","description":"Cover the parser","activeForm":"Writing tests"}`)},
		{mcp("TaskCreate", `{"subject":"Update the docs","description":"Describe the format","activeForm":"Updating the docs"}`)},
		{mcp("TaskUpdate", `{"taskId":"1","status":"in_progress"}`)},
		{mcp("TaskUpdate", `{"taskId":"1","status":"completed"}`)},
		{mcp("TaskUpdate", `{"taskId":"3","status":"deleted"}`)},
		text("All done."),
		{mcp("TaskCreate", `{"subject":"Update the docs","description":"Describe the format","activeForm":"Updating the docs"}`)},
		{mcp("TaskUpdate", `{"taskId":"2","status":"in_progress"}`)},
		{mcp("TaskUpdate", `{"taskId":"2","status":"completed"}`)},
		{mcp("TaskUpdate", `{"taskId":"4","status":"in_progress"}`)},
		{mcp("TaskUpdate", `{"taskId":"4","status":"completed"}`)},
		text("Now all done."),
	}, "TODO_SHELL_PLAN="+plan)
	conf, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"todo-shell": map[string]any{
		"command": binary, "args": []string{"mcp", "--plan", plan, "--offload-dir", filepath.Join(s.dir, "off")},
	}}})
	cfg := s.write("mcp.json", string(conf))
	out := s.print("Build the parser on the shared plan", "--mcp-config", cfg, "--strict-mcp-config", "--dangerously-skip-permissions",
		"--disallowedTools", "TaskCreate,TaskGet,TaskList,TaskUpdate,TaskStop,TodoWrite")
	if b, err := os.ReadFile(filepath.Join(s.run.LogDir, "api.log")); err == nil {
		t.Logf("api:\n%s", b)
	}
	reqs := s.requests()
	if len(reqs) != 13 || !equalInts(held(reqs), []int{7}) {
		t.Fatalf("%d requests, held at %v, want 13 and [7]:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
	}
	if !strings.Contains(reqs[0].body, jsonString(`todo-shell task plan "`+plan+`"`)) {
		t.Errorf("the first request does not carry the plan as context")
	}
	for _, w := range []string{"task #3 'Update the docs' was deleted while pending", "task #2 'Write tests' of plan " + plan + " is still pending"} {
		if !strings.Contains(reqs[7].last(), jsonString(w)) {
			t.Errorf("the request after the stop lacks %q:\n%s", w, reqs[7].last())
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
