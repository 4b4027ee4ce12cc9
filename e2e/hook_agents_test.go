package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The same hook with the real Codex (npm @openai/codex) and Gemini CLI
// (npm @google/gemini-cli), whose hooks take and give the same JSON: the
// hooks put in place by `todo-shell hook --install --agent codex|gemini`
// into settings that hold other keys already.

func steps(items ...string) string {
	var parts []string
	for _, it := range items {
		content, status, _ := strings.Cut(it, "=")
		status = map[string]string{"p": "pending", "i": "in_progress", "c": "completed"}[status]
		parts = append(parts, fmt.Sprintf(`{"step":%q,"status":%q}`, content, status))
	}
	return `{"plan":[` + strings.Join(parts, ",") + `]}`
}

func geminiTodos(items ...string) string {
	var parts []string
	for _, it := range items {
		content, status, _ := strings.Cut(it, "=")
		status = map[string]string{"p": "pending", "i": "in_progress", "c": "completed"}[status]
		parts = append(parts, fmt.Sprintf(`{"description":%q,"status":%q}`, content, status))
	}
	return `{"todos":[` + strings.Join(parts, ",") + `]}`
}

// install runs todo-shell hook --install for agent into settings.
func (s *cliScenario) install(agent, settings string) {
	s.t.Helper()
	out, err := exec.Command(binary, "hook", "--install", "--agent", agent, "--settings", settings).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "hooks are in place") {
		s.t.Fatalf("hook --install: %v\n%s", err, out)
	}
}

func codexScenario(t *testing.T, script []turn, env ...string) *cliScenario {
	t.Helper()
	codex := agentCLI(t, "TODO_SHELL_CODEX", "codex", "@openai/codex")
	s := newCLIScenario(t, script)
	// As internal/plan/testdata/record/README.md ran it: a provider on the
	// fake API, update_plan on, nothing sent elsewhere.
	s.write("home/.codex/config.toml", `model = "gpt-5"
model_provider = "fake"
check_for_update_on_startup = false
[model_providers.fake]
name = "fake"
base_url = "{{BASE}}/v1"
wire_api = "responses"
env_key = "FAKE_KEY"
[tools.update_plan]
enabled = true
[analytics]
enabled = false
[feedback]
enabled = false
[otel]
exporter = "none"
`)
	s.write("home/.codex/hooks.json", `{"hooks":{"PreToolUse":[{"matcher":"shell","hooks":[{"type":"command","command":"true"}]}]}}`)
	s.install("codex", filepath.Join(s.home, ".codex", "hooks.json"))
	// The base URL is only known inside the namespace: a shell puts it in.
	s.run.Command = []string{"sh", "-c", `sed -i "s|{{BASE}}|$FAKE_URL|" "$CODEX_HOME/config.toml" && exec "$0" exec --skip-git-repo-check --dangerously-bypass-hook-trust "$1"`, codex, "Write a parser"}
	s.run.Env = append([]string{"HOME=" + s.home, "CODEX_HOME=" + filepath.Join(s.home, ".codex"), "XDG_STATE_HOME=" + s.state,
		"FAKE_URL={{URL}}", "FAKE_KEY=x", "TODO_SHELL_PLAN=", "TODO_SHELL_HOOK_MAX_BLOCKS="}, env...)
	return s
}

func geminiScenario(t *testing.T, script []turn, env ...string) *cliScenario {
	t.Helper()
	gemini := agentCLI(t, "TODO_SHELL_GEMINI", "gemini", "@google/gemini-cli")
	s := newCLIScenario(t, script)
	settings := s.write("home/.gemini/settings.json", `{"general":{"disableAutoUpdate":true,"disableUpdateNag":true},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"security":{"auth":{"selectedType":"gemini-api-key"}}}`)
	s.install("gemini", settings)
	// write_todos is offered only to a Gemini 2 model that is no preview.
	s.run.Command = []string{gemini, "-m", "gemini-2.5-pro", "-p", "Write a parser", "--yolo"}
	// GEMINI_CLI_NO_RELAUNCH: Gemini CLI otherwise starts itself again in
	// a child node process (for a larger heap) and runs there with it
	// set; started so at once, the run is the same less a second start
	// (≈1 s of CPU).
	s.run.Env = append([]string{"HOME=" + s.home, "XDG_STATE_HOME=" + s.state, "GOOGLE_GEMINI_BASE_URL={{URL}}", "GEMINI_API_KEY=x",
		"GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_CLI_NO_RELAUNCH=true", "TODO_SHELL_PLAN=", "TODO_SHELL_HOOK_MAX_BLOCKS="}, env...)
	return s
}

func (s *cliScenario) runToEnd() string {
	s.t.Helper()
	out, err := s.exec()
	if err != nil {
		s.t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// TestRealAgentsStopHook: Codex's update_plan and Gemini CLI's write_todos
// plans of three, one completed, one dropped: the stop is held, the next
// request names both; completed, it goes through. A model that never
// finishes is held exactly twice.
func TestRealAgentsStopHook(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"codex", "gemini"} {
		t.Run(agent, func(t *testing.T) {
			plan, tool, scenario := steps, "update_plan", codexScenario
			if agent == "gemini" {
				plan, tool, scenario = geminiTodos, "write_todos", geminiScenario
			}
			s := scenario(t, []turn{
				{call(tool, plan("Write the parser=i", "Add tests=p", "Update the docs=p"))},
				{call(tool, plan("Write the parser=c", "Update the docs=i"))},
				text("All done."),
				{call(tool, plan("Write the parser=c", "Add tests=c", "Update the docs=c"))},
				text("Now all done."),
			})
			out := s.runToEnd()
			reqs := s.requests()
			if len(reqs) != 5 || !equalInts(held(reqs), []int{3}) {
				t.Fatalf("%d requests, held at %v, want 5 and [3]:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
			}
			for _, w := range []string{"'Add tests' was removed while pending", "'Update the docs' is still in progress"} {
				if !strings.Contains(reqs[3].last(), jsonString(w)) {
					t.Errorf("the request after the stop lacks %q:\n%s", w, reqs[3].last())
				}
			}

			s = scenario(t, []turn{{call(tool, plan("Write the parser=i", "Add tests=p"))}})
			out = s.runToEnd()
			reqs = s.requests()
			if len(reqs) != 4 || !equalInts(held(reqs), []int{2, 3}) {
				t.Fatalf("never finishing: %d requests, held at %v, want 4 and [2 3]:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
			}
		})
	}
}

// TestRealAgentsGetTheSharedPlan: with a shared plan named
// (TODO_SHELL_PLAN), the real Codex (SessionStart, UserPromptSubmit) and
// Gemini CLI (SessionStart, BeforeAgent) send the model the plan's tasks
// with the first request; a task of another agent's is not this one's to
// finish, so its stop goes through.
func TestRealAgentsGetTheSharedPlan(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"codex", "gemini"} {
		t.Run(agent, func(t *testing.T) {
			plan := fmt.Sprintf("agents-%d", os.Getpid())
			scenario := codexScenario
			if agent == "gemini" {
				scenario = geminiScenario
			}
			s := scenario(t, []turn{text("Hello.")}, "TODO_SHELL_PLAN="+plan)
			s.write(filepath.Join("state", "todo-shell", "plans", plan, "tasks.jsonl"),
				`{"version":1,"time":"2026-11-28T09:00:00Z","tool":"TaskCreate","by":"claude-code","input":{},"set":[{"id":"1","subject":"Write the lexer","description":"","activeForm":"Writing the lexer","status":"in_progress","owner":"claude-code","blocks":[],"blockedBy":[]}],"next_id":2}`+"\n")
			out := s.runToEnd()
			reqs := s.requests()
			if len(reqs) != 1 || len(held(reqs)) != 0 {
				t.Fatalf("%d requests, held at %v, want 1, none held:\n%s\n%s", len(reqs), held(reqs), dump(reqs), out)
			}
			for _, w := range []string{`todo-shell task plan "` + plan + `"`, "#1 Write the lexer"} {
				if !strings.Contains(reqs[0].body, jsonString(w)) {
					t.Errorf("the first request lacks %q:\n%s", w, reqs[0].body)
				}
			}
		})
	}
}
