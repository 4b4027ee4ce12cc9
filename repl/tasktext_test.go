package repl

import (
	"strings"
	"testing"
)

// TestTaskTextControlsShown: control characters in a task's text are shown
// in what the shell prints, never acting: a carriage return in TaskGet's
// description drew the rest of its line over the start ("XX      tabrwrite"
// on screen). Each line is printed with what it must show and must not.
func TestTaskTextControlsShown(t *testing.T) {
	tm, _ := start(t, 100, 30)
	steps := []struct{ line, want string }{
		{`TaskCreate '{"subject":"s\rYY","description":"tab\trwrite\rXX\u001b[2Jred\u0085c1\nsecond line"}'`,
			"Task #1 created successfully: s␍YY"},
		{`TaskGet '{"taskId":"1"}'`, "tab     rwrite␍XX␛[2Jred\ufffdc1"},
		{`TaskList`, "s␍YY"},
		{`TodoRead`, "[ ] #1 s YY"},
	}
	for _, s := range steps {
		enter(tm, s.line)
		waitFor(t, tm, s.want)
	}
	finalView(t, tm)
	got := lastTranscript.String()
	for _, want := range []string{"Task #1: s␍YY", "\nsecond line\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the shell printed no %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\r\x1b\u0085") {
		t.Errorf("the shell printed a control character raw:\n%q", got)
	}
}
