package router

import (
	"context"
	"strings"
	"testing"
)

// TestHints: the shell's hints on the errors a newcomer meets first
// (issue 16.20), and none where they do not apply.
func TestHints(t *testing.T) {
	sh, _ := newShell(t)
	for _, tc := range []struct{ line, hint string }{
		{"todoread", "did you mean TodoRead?"},
		{"TODOWRITE x", "did you mean TodoWrite?"},
		{"nosuchcommand-x", ""},
		{`TodoWrite {"todos":[]}`, `Hint: wrap the JSON in single quotes, or the shell removes its double quotes: TodoWrite '{"todos":[]}'`},
		{`TaskUpdate {"taskId":"9"}`, `TaskUpdate '{"taskId":"9"}'`},
		{`TodoWrite '{"todos":[}'`, ""},
		{`TodoWrite '{"todos":[{"id":"1","content":"a","status":"pending","priority":"high"}]}'`,
			// One line, which the view wraps to the terminal's width.
			`Hint: id and priority are the fields of Claude Code 1.x's TodoWrite. todo-shell takes each todo as {"content", "activeForm", "status"}: drop id and priority, and add activeForm (shown while it runs: "Running tests").`},
		{`TodoWrite '{"todos":[{"content":"a","status":"pending"}]}'`, ""},
	} {
		out := sh.Run(context.Background(), Classify(tc.line, sh.Executor), nil)
		if tc.hint == "" {
			if strings.Contains(out.Stderr, "Hint") || strings.Contains(out.Stderr, "did you mean") {
				t.Errorf("%s: an unexpected hint:\n%s", tc.line, out.Stderr)
			}
			continue
		}
		if !strings.Contains(out.Stderr, tc.hint) {
			t.Errorf("%s: no %q in\n%s", tc.line, tc.hint, out.Stderr)
		}
		if out.Result != nil && strings.Contains(out.Result.Content, tc.hint) {
			t.Errorf("%s: the hint reached the tool_result", tc.line)
		}
	}
}
