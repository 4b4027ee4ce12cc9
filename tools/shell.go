package tools

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// ShellForm is a call's result as a person at a shell sees it: what goes to
// stdout and to stderr, and an exit status.
type ShellForm struct {
	Stdout   string // text for stdout, without a trailing newline
	Stderr   string // text for stderr, without a trailing newline
	ExitCode int    // 0 for success

	// Exit asks the shell to leave with ExitCode (a bash line that ran
	// exit at its top level).
	Exit bool
	// NoCall says the line never became a tool call (its argument was not
	// JSON): a front end shows no tool_use for it.
	NoCall bool
	// Offloaded is set when Stdout is the pointer to an offload file; its
	// Preview and Lines are what a person is shown of it.
	Offloaded *Offloaded
	// OffloadErr says why a long result is not where the offload policy
	// puts it (in the fallback directory, or shown whole).
	OffloadErr error
	// Whole marks a form a person asked to read (TodoRead's list,
	// TaskList, TaskGet): when its stdout is offloaded, Full keeps the
	// text, for an interactive front end to show whole.
	Whole bool
	// Full is the text of a Whole form whose Stdout became an offload
	// pointer.
	Full string
}

// Shell is implemented by a tool that has its own shell form: how the words
// typed after its name become its input, and how its result reads for a
// person. Registry.Add takes such a tool; a tool without one gets the
// generic form (ShellInput and GenericForm): one JSON argument, the content
// on stdout, an error on stderr.
type Shell interface {
	// ShellInput turns args, the words typed after the tool's name (split
	// as a shell splits them), into the tool's input. When they cannot be,
	// it returns the form to show instead and no call is made.
	ShellInput(args []string) (json.RawMessage, *ShellForm)
	// ShellForm returns res, the result of the call made with the input
	// from args, for a person.
	ShellForm(args []string, res ToolResult) ShellForm
}

// ShellInput is the generic shell input of the tool called name: no
// argument is {}, one argument is a JSON value (compacted), more is a usage
// error.
func ShellInput(name string, args []string) (json.RawMessage, *ShellForm) {
	usage := fmt.Sprintf("Usage: %s '<JSON input>'", name)
	switch {
	case len(args) > 1:
		return nil, ArgsError(args, usage)
	case len(args) == 1:
		if strings.TrimSpace(args[0]) == "" {
			return nil, EmptyArgError(usage)
		}
		if !json.Valid([]byte(args[0])) {
			var v any
			err := json.Unmarshal([]byte(args[0]), &v)
			return nil, &ShellForm{Stderr: fmt.Sprintf("Error: Invalid JSON format\n%v\n%s", err, usage), ExitCode: 1, NoCall: true}
		}
		if compact, err := jsonscan.Compact(args[0]); err == nil {
			return json.RawMessage(compact), nil
		}
		return json.RawMessage(args[0]), nil
	}
	return json.RawMessage(`{}`), nil
}

// ArgsError is the form shown when args, several words, were typed where one
// JSON argument is wanted. A first word that is JSON on its own is followed
// by extra arguments; a first word that starts an object and kept its double
// quotes was single-quoted, and an apostrophe in the text closed the
// quotes early; anything else was not quoted at all.
func ArgsError(args []string, usage string) *ShellForm {
	var msg string
	first := strings.TrimSpace(args[0])
	switch {
	case json.Valid([]byte(first)):
		extra := args[1:]
		quoted := make([]string, len(extra))
		for i, a := range extra {
			quoted[i] = strconv.Quote(a)
		}
		noun := "an extra argument"
		if len(extra) > 1 {
			noun = strconv.Itoa(len(extra)) + " extra arguments"
		}
		msg = fmt.Sprintf("Error: %s after the JSON: %s\nThe JSON is the only argument; remove the rest", capitalize(noun), strings.Join(quoted, " "))
	case strings.HasPrefix(first, "{") && strings.Contains(first, `"`):
		msg = fmt.Sprintf("Error: Invalid JSON format\nAn apostrophe (') in the text closed the single quotes early, leaving %d arguments: "+
			`write it as \u0027 (JSON's escape, "Don\u0027t") or as '\'' (close the quote, an escaped ', open it again)`, len(args))
	default:
		msg = fmt.Sprintf("Error: Invalid JSON format\nExpected one argument, got %d: quote the JSON in single quotes", len(args))
	}
	return &ShellForm{Stderr: msg + "\n" + usage, ExitCode: 1, NoCall: true}
}

// EmptyArgError is the form shown when the one JSON argument is empty
// (a pair of single quotes with nothing between them).
func EmptyArgError(usage string) *ShellForm {
	return &ShellForm{Stderr: "Error: The JSON argument is empty\n" + usage, ExitCode: 1, NoCall: true}
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// GenericForm is the generic shell form of a result: an error's content on
// stderr with status 1, anything else on stdout.
func GenericForm(res ToolResult) ShellForm {
	form := ShellForm{Offloaded: res.Offloaded, OffloadErr: res.OffloadErr}
	switch {
	case res.IsError:
		form.Stderr, form.ExitCode = "Error: "+strings.TrimSuffix(res.Content, "\n"), 1
	case res.Offloaded != nil:
		form.Stdout = res.Content
	default:
		form.Stdout = strings.TrimSuffix(res.Content, "\n")
	}
	return form
}

// Summarizer is implemented by a tool that says one call of it in a line
// for a person watching a model work: Bash(ls -la), TodoWrite(3 todos).
// Registry.Summary uses it; other tools are shown as Name(input).
type Summarizer interface {
	CallSummary(input json.RawMessage) string
}

// OneLine shows a multi-line text on one line, for labels and summaries:
// backslash-newline continuations are joined and other newlines become
// spaces.
func OneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\\\n", ""), "\n", " ")
}

// LineBreak marks, in a command shown on one line, where its lines met.
const LineBreak = " ⏎ "

// CommandLine shows a shell command of several lines on one line, for
// labels and summaries (the running row, the queued rows, an agent's
// Bash call): a backslash-newline vanishes, as the shell reads it (the
// line goes on), and every other line break shows as LineBreak, the
// indentation of the line after it left out. Joined by spaces, `echo a`
// over `sleep 2` read as one command, `echo a sleep 2` (issue 29, item 20).
func CommandLine(s string) string {
	s = strings.ReplaceAll(s, "\\\n", "")
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimLeft(lines[i], " \t")
	}
	return strings.Join(lines, LineBreak)
}

// ShellCompleter is implemented by a tool that helps a person type a call
// of it at a shell (Tab): the flags its shell form takes, and a whole
// argument to offer after its name (TodoWrite offers the current list as
// editable JSON). Registry.CompleterOf finds it.
type ShellCompleter interface {
	// ShellFlags are the flags ShellInput takes ("--json").
	ShellFlags() []string
	// ShellArg returns an argument to insert, quoted, after the tool's
	// name and what a list of completions calls it; ok is false for none.
	ShellArg() (insert, display string, ok bool)
}
