package plan

import (
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestAgentFixtures replays the session files the real CLIs wrote, driven
// by the scripted fake API of testdata/record, each version's statuses and
// changes. Each script makes the same plan: three items, the second
// reworded ("Write tests" → "Write unit tests"), the third left unfinished.
func TestAgentFixtures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file   string
		format Format
		want   []string // per version: statuses and the change in short
	}{
		{"codex-0.169.0_rollout.jsonl", FormatCodexRollout, []string{
			"ipp +Write the parser +Write tests +Update the docs >Write the parser",
			"cip ~Write tests→Write unit tests >Write unit tests ✓Write the parser",
			"cc ✓Write unit tests !Update the docs",
		}},
		{"gemini-cli-0.61.0_session.jsonl", FormatGeminiSession, []string{
			"ipp +Write the parser +Write tests +Update the docs >Write the parser",
			"cip ~Write tests→Write unit tests >Write unit tests ✓Write the parser",
			// "Update the docs" cancelled: it left the plan unfinished.
			"cc ✓Write unit tests !Update the docs",
			"cc ",
		}},
		{"opencode-1.18.33_export.json", FormatOpencodeExport, []string{
			"ipp +Write the parser +Write tests +Update the docs >Write the parser",
			"cip ~Write tests→Write unit tests >Write unit tests ✓Write the parser",
			"cc ✓Write unit tests !Update the docs",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			vs, p := versions(t, tc.file)
			if p.Format() != tc.format {
				t.Errorf("format %v, want %v", p.Format(), tc.format)
			}
			var got []string
			var prev *Version
			for i, v := range vs {
				got = append(got, statuses(v.Todos)+" "+short(Changes(prev, v)))
				if v.N != i+1 || v.Time.IsZero() || v.ToolUseID == "" || !v.OwnRules {
					t.Errorf("version %d: %+v", i+1, v)
				}
				if pr := Check(v, todo.DefaultLimits()); pr != nil {
					t.Errorf("version %d breaks %q", i+1, pr)
				}
				prev = v
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("versions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestAgentFailedCalls: a plan call the agent refused makes no version.
func TestAgentFailedCalls(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		lines []string
	}{
		{"codex in Plan mode", []string{
			`{"timestamp":"2026-11-25T09:40:25.361Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"a\",\"status\":\"pending\"}]}","call_id":"c1"}}`,
			`{"timestamp":"2026-11-25T09:40:25.361Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"update_plan is a TODO/checklist tool and is not allowed in Plan mode"}}`,
		}},
		{"gemini error", []string{
			`{"id":"m1","timestamp":"2026-11-25T09:42:58.172Z","type":"gemini","content":"","toolCalls":[{"id":"w1","name":"write_todos","args":{"todos":[{"description":"a","status":"pending"}]},"status":"error"}]}`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p Parser
			n := 0
			for _, l := range tc.lines {
				if err := p.Feed([]byte(l), func(Event) { n++ }); err != nil {
					t.Fatal(err)
				}
			}
			p.Flush(func(Event) { n++ })
			if n != 0 || p.Records() == 0 {
				t.Errorf("%d events from %d records", n, p.Records())
			}
		})
	}
}

// TestGeminiCallDetail: a write_todos call line counts the call's own
// todos, the cancelled ones said (they leave the plan, so the version has
// fewer).
func TestGeminiCallDetail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ todos, want string }{
		{`{"description":"a","status":"completed"},{"description":"b","status":"in_progress"}`, "2 todos"},
		{`{"description":"a","status":"completed"},{"description":"b","status":"cancelled"},{"description":"c","status":"in_progress"}`, "3 todos, 1 cancelled"},
		{`{"description":"a","status":"cancelled"}`, "1 todo, 1 cancelled"},
	} {
		line := `{"id":"m1","timestamp":"2026-11-25T09:42:58.172Z","type":"gemini","content":"","toolCalls":[{"id":"w1","name":"write_todos","args":{"todos":[` +
			tc.todos + `]},"status":"success"}]}`
		p := Parser{Playback: true}
		var got []string
		if err := p.Feed([]byte(line), func(e Event) {
			if e.Kind == KindCall {
				got = append(got, e.Detail)
			}
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: call details %q, want %q", tc.todos, got, tc.want)
		}
	}
}
