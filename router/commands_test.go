package router

import (
	"reflect"
	"testing"
)

// TestCommands: a multi-line paste is the commands bash would read from it,
// an agent command (or a builtin) on its own (trial findings: "echo hello >
// notes.txt; ls⏎TodoRead" ran as one bash line, "TodoRead: command not
// found"; "TodoRead⏎echo after" gave TodoRead the argument echo).
func TestCommands(t *testing.T) {
	tools := names{"TodoRead": true, "TodoWrite": true}
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"one line", "echo hi", []string{"echo hi"}},
		{"bash then tool", "echo hello > notes.txt; ls\nTodoRead", []string{"echo hello > notes.txt; ls", "TodoRead"}},
		{"tool then bash", "TodoRead\necho after", []string{"TodoRead", "echo after"}},
		{"bash lines stay together", "for i in 1 2\ndo echo $i\ndone", []string{"for i in 1 2\ndo echo $i\ndone"}},
		{"TodoWrite JSON over lines in quotes", "TodoWrite '{\"todos\":[\n{\"content\":\"a\"}\n]}'\necho x",
			[]string{"TodoWrite '{\"todos\":[\n{\"content\":\"a\"}\n]}'", "echo x"}},
		{"heredoc then tool", "cat <<EOF\nTodoRead\nEOF\nTodoRead", []string{"cat <<EOF\nTodoRead\nEOF", "TodoRead"}},
		{"backslash continuation", "echo a \\\nTodoRead\nTodoRead", []string{"echo a \\\nTodoRead", "TodoRead"}},
		{"builtin on its own", "cd /tmp\n/help\nls", []string{"cd /tmp", "/help", "ls"}},
		{"two tools", "TodoRead\nTodoRead --json", []string{"TodoRead", "TodoRead --json"}},
		{"blank lines skipped", "TodoRead\n\n  \necho x\n", []string{"TodoRead", "echo x"}},
		{"only blank lines", "\n\n", []string{"\n\n"}},
		{"open quote at the end", "TodoRead\necho 'open", []string{"TodoRead", "echo 'open"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Commands(tc.text, tools); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Commands(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
