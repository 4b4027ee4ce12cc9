package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// The claude-code-2.1.332_*.json inputs are what the real Claude Code
// 2.1.332 passed a command hook (recorded with a hook that copied its
// standard input), run against the scripted fake API on loopback.

func TestParseInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file   string
		agent  Agent
		kind   Kind
		prompt string
		active bool
	}{
		{"claude-code-2.1.332_SessionStart.json", Claude, KindSessionStart, "", false},
		{"claude-code-2.1.332_UserPromptSubmit.json", Claude, KindPrompt, "29fb6326-6e62-42e2-bc34-61cf159db53d", false},
		{"claude-code-2.1.332_Stop.json", Claude, KindStop, "29fb6326-6e62-42e2-bc34-61cf159db53d", false},
		{"claude-code-2.1.332_Stop_active.json", Claude, KindStop, "29fb6326-6e62-42e2-bc34-61cf159db53d", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			in, err := ParseInput(b)
			if err != nil {
				t.Fatal(err)
			}
			if in.Agent != tc.agent || in.Kind() != tc.kind || in.Prompt() != tc.prompt || in.StopHookActive != tc.active || in.TranscriptPath == "" {
				t.Fatalf("%+v", in)
			}
		})
	}
	for _, tc := range []struct {
		in    string
		agent Agent
		kind  Kind
	}{
		// Codex 0.171.0's stop.command.input: a turn_id.
		{`{"session_id":"s","turn_id":"t1","transcript_path":"/r.jsonl","cwd":"/","hook_event_name":"Stop","model":"gpt-5","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`, Codex, KindStop},
		// Gemini CLI 0.61.0's AfterAgent: a timestamp.
		{`{"session_id":"s","transcript_path":"/c.jsonl","cwd":"/","hook_event_name":"AfterAgent","timestamp":"2026-11-28T09:00:00Z","prompt":"x","prompt_response":"y","stop_hook_active":false}`, Gemini, KindStop},
		{`{"session_id":"s","transcript_path":"/c.jsonl","cwd":"/","hook_event_name":"SessionStart","timestamp":"2026-11-28T09:00:00Z","source":"startup"}`, Gemini, KindSessionStart},
		{`{"session_id":"s","transcript_path":"/c.jsonl","cwd":"/","hook_event_name":"BeforeAgent","timestamp":"2026-11-28T09:00:00Z","prompt":"x"}`, Gemini, KindPrompt},
		{`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, Claude, KindOther},
		{`{"hook_event_name":"SubagentStop","agent_transcript_path":"/a.jsonl"}`, Claude, KindSubagentStop},
	} {
		in, err := ParseInput([]byte(tc.in))
		if err != nil || in.Agent != tc.agent || in.Kind() != tc.kind {
			t.Errorf("%s: %+v, %v", tc.in, in, err)
		}
	}
	for _, bad := range []string{``, `[]`, `{"session_id":"s"}`, `{"hook_event_name":1}`, "{\"hook_event_name\":\"Stop\"", `nul`} {
		if _, err := ParseInput([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestAnswers: each answer exactly as the agents' hook documents spell it.
func TestAnswers(t *testing.T) {
	t.Parallel()
	claude := Input{Event: "Stop", Agent: Claude}
	codex := Input{Event: "Stop", Agent: Codex}
	gemini := Input{Event: "AfterAgent", Agent: Gemini}
	for _, tc := range []struct {
		name string
		got  []byte
		want string
	}{
		{"claude block", Block(claude, "Finish 'A'", ""), `{"decision":"block","reason":"Finish 'A'"}` + "\n"},
		{"codex block", Block(codex, "Finish 'A'", ""), `{"decision":"block","reason":"Finish 'A'"}` + "\n"},
		{"gemini block", Block(gemini, "Finish 'A'", ""), `{"decision":"deny","reason":"Finish 'A'"}` + "\n"},
		{"claude allow", Allow(claude, ""), ""},
		{"codex allow", Allow(codex, ""), "{}\n"},
		{"gemini allow", Allow(gemini, ""), "{}\n"},
		{"allow with a note", Allow(claude, "todo-shell: let through"), `{"systemMessage":"todo-shell: let through"}` + "\n"},
		{"session start context", Context(Input{Event: "SessionStart"}, "plan <b>"), `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"plan <b>"}}` + "\n"},
		{"prompt context", Context(Input{Event: "UserPromptSubmit"}, "plan"), `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"plan"}}` + "\n"},
		{"gemini prompt context", Context(Input{Event: "BeforeAgent", Agent: Gemini}, "plan"), `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"plan"}}` + "\n"},
	} {
		if string(tc.got) != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, tc.got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/usr/local/bin/todo-shell":    "/usr/local/bin/todo-shell",
		"/home/me/my tools/todo-shell": "'/home/me/my tools/todo-shell'",
		"/tmp/it's/todo-shell":         `'/tmp/it'\''s/todo-shell'`,
		"/tmp/$(rm -rf x)/todo-shell":  "'/tmp/$(rm -rf x)/todo-shell'",
		"":                             "''",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
