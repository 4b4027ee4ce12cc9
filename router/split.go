package router

import (
	"strings"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// Waiting tells what a bash line typed so far waits for before it can run,
// in a word or two, as a continuation prompt shows it: "quote", "dquote",
// "heredoc EOF", "\\", "if", "pipe"… (bashline.Status.Label); "" when it
// is complete.
func Waiting(text string) string {
	return bashline.Check(text).Label()
}

// Commands splits a multi-line text (a paste) into the commands it holds,
// as bash reads a paste line by line: a line with an open quote, a trailing
// backslash, a here-document or an unfinished construct (if without fi, a
// pipe at its end) goes on until it is complete. An agent command or a
// builtin is a command of its own; the bash lines between them stay one
// command (bash knows where its compound commands end), in order.
func Commands(text string, names ToolNames) []string {
	if !strings.Contains(text, "\n") {
		return []string{text}
	}
	var (
		out  []string
		bash []string // bash units not yet added
	)
	flush := func() {
		if len(bash) > 0 {
			out = append(out, strings.Join(bash, "\n"))
			bash = nil
		}
	}
	var s bashline.Scanner
	defer s.Close()
	for _, line := range strings.Split(text, "\n") {
		if s.Line(line) {
			continue
		}
		u := s.Text()
		switch Classify(u, names).Kind {
		case Agent, Builtin:
			flush()
			out = append(out, u)
		case Empty: // bash skips a blank line
		default:
			bash = append(bash, u)
		}
	}
	if s.Incomplete() { // incomplete at the end: bash says so
		bash = append(bash, s.Text())
	}
	flush()
	if len(out) == 0 {
		return []string{text}
	}
	return out
}
