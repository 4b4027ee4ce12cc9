package router

import (
	"strings"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// The hints the shell adds to an error a person is likely to meet first.
// They are the shell's: a tool_result keeps its own content.

// didYouMean names the tool a bash line that was not found meant
// ("todoread" → TodoRead), or "".
func (s *Shell) didYouMean(command string, out Output) string {
	if out.ExitCode != 127 || s.Executor == nil {
		return ""
	}
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return ""
	}
	for _, d := range s.Executor.Registry().Definitions() {
		if d.Name != fields[0] && strings.EqualFold(d.Name, fields[0]) {
			return "did you mean " + d.Name + "?"
		}
	}
	return ""
}

// unquotedJSONHint is said when a JSON argument was typed without quotes:
// the shell took its double quotes away before the tool saw it.
func unquotedJSONHint(args, name string) string {
	a := strings.TrimSpace(args)
	if !strings.HasPrefix(a, "{") || !strings.Contains(a, `"`) {
		return ""
	}
	example := a
	if len(example) > 60 || strings.ContainsAny(example, "'\n") {
		example = "{...}"
	}
	return "Hint: wrap the JSON in single quotes, or the shell removes its double quotes: " + name + " " + bashline.Quote(example)
}

// withHint adds a hint line to an error output.
func withHint(out Output, hint string) Output {
	if hint != "" {
		out.Stderr = strings.TrimSuffix(out.Stderr, "\n") + "\n" + hint
	}
	return out
}
