package bash

import "testing"

// TestCallSummaryMarksLineBreaks: an agent's Bash call of several lines
// shows with its line breaks marked, as the shell's running row shows a
// pasted one (issue 29, item 20): joined by spaces, `echo a` over
// `sleep 2` read as `Bash(echo a sleep 2)`, one command.
func TestCallSummaryMarksLineBreaks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ command, want string }{
		{"ls -la", "Bash(ls -la)"},
		{"echo a\nsleep 2", "Bash(echo a ⏎ sleep 2)"},
		{"for f in *; do\n  wc -l \"$f\"\ndone\n", "Bash(for f in *; do ⏎ wc -l \"$f\" ⏎ done)"},
		{"make \\\n  test", "Bash(make   test)"},
	} {
		if got := (Tool{}).CallSummary(CommandInput(tc.command)); got != tc.want {
			t.Errorf("CallSummary(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}
