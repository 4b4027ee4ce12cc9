// Package router classifies the lines typed into todo-shell and runs them as
// tool calls: agent commands (TodoWrite, TodoRead, any registered tool) with
// their shell-style arguments, and everything else as a Bash tool call.
package router

import (
	"strings"
	"unicode"
)

// Kind is what a typed line is.
type Kind int

// The kinds of line.
const (
	Empty   Kind = iota // nothing but blanks
	Builtin             // /help, /exit, exit, quit, …: the front end handles it
	Agent               // a registered tool's name, then its arguments
	Bash                // anything else: a shell command
)

func (k Kind) String() string {
	return [...]string{"empty", "builtin", "agent", "bash"}[k]
}

// Line is a classified line.
type Line struct {
	Kind Kind
	Name string // Builtin: the word without its slash ("help", "exit"); Agent: the tool name
	Args string // Builtin and Agent: the text after the first word
	Text string // Bash: the command to run (without a leading '!')

	Forced bool // Bash: the line started with '!'
}

// ToolNames tells which names are agent commands; *tools.Registry does.
type ToolNames interface {
	Has(name string) bool
}

// Classify says what line is. A leading '!' forces Bash. A line starting with
// '/' is a builtin unless its first word is a path (`/bin/ls`); so are the
// bare words exit and quit. A line whose first word is exactly a registered
// tool name, followed by a blank or the end, is an agent command.
func Classify(line string, names ToolNames) Line {
	text := strings.TrimLeftFunc(line, unicode.IsSpace)
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	if text == "" {
		return Line{Kind: Empty}
	}
	if text[0] == '!' {
		return Line{Kind: Bash, Text: strings.TrimLeftFunc(text[1:], unicode.IsSpace), Forced: true}
	}
	word, rest := firstWord(text)
	switch {
	case word[0] == '/' && len(word) > 1 && !strings.Contains(word[1:], "/"):
		return Line{Kind: Builtin, Name: word[1:], Args: rest}
	case rest == "" && (word == "exit" || word == "quit"):
		return Line{Kind: Builtin, Name: "exit"}
	case names != nil && names.Has(word):
		return Line{Kind: Agent, Name: word, Args: rest}
	}
	return Line{Kind: Bash, Text: text}
}

// firstWord splits text at its first blank.
func firstWord(text string) (word, rest string) {
	i := strings.IndexFunc(text, unicode.IsSpace)
	if i < 0 {
		return text, ""
	}
	return text[:i], strings.TrimLeftFunc(text[i:], unicode.IsSpace)
}
