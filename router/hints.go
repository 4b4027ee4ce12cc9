package router

import "strings"

// The hints the shell adds to an error a person is likely to meet first.
// They are the shell's: a tool_result keeps its own content.

// didYouMean names the tool a bash line that was not found meant
// ("todoread" → TodoRead), or "".
func (s *Shell) didYouMean(command string, out Output) string {
	if out.ExitCode != 127 || s.Registry == nil {
		return ""
	}
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return ""
	}
	for _, d := range s.Registry.Definitions() {
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
	return "Hint: wrap the JSON in single quotes, or the shell removes its double quotes: " + name + ` '{"todos":[...]}'`
}

// oldShapeHint is said when a TodoWrite list has the fields of Claude
// Code 1.x's todos (id, priority): todo-shell takes today's shape.
func oldShapeHint(msgs []string) string {
	for _, m := range msgs {
		if strings.HasSuffix(m, "unknown field 'id'") || strings.HasSuffix(m, "unknown field 'priority'") {
			return "Hint: id and priority are the fields of Claude Code 1.x's TodoWrite.\n" +
				"todo-shell takes each todo as {\"content\", \"activeForm\", \"status\"}: drop id\n" +
				"and priority, and add activeForm (shown while it runs: \"Running tests\")."
		}
	}
	return ""
}

// withHint adds a hint line to an error output.
func withHint(out Output, hint string) Output {
	if hint != "" {
		out.Stderr = strings.TrimSuffix(out.Stderr, "\n") + "\n" + hint
	}
	return out
}
