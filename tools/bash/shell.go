package bash

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// Tool is the Bash tool as one value, with its shell form: the command's
// output on stdout, how it ended (its trailer line) on stderr, and its own
// exit status.
type Tool struct {
	Runner  *Runner
	Timeout time.Duration // a command's default timeout
	// Offload is the policy output is spooled under as it streams: past
	// its threshold it goes to a file named after the call. The zero
	// Config keeps the output in memory, bounded as a Spool bounds it.
	Offload offload.Config
	// Redact masks secrets in the output before it reaches the spool (and
	// its file) or the screen; nil masks nothing.
	Redact *tools.Redactor
}

var (
	_ tools.Tool       = Tool{}
	_ tools.Shell      = Tool{}
	_ tools.Summarizer = Tool{}
)

// CallSummary is Bash(command), a command of several lines with its line
// breaks marked.
func (Tool) CallSummary(input json.RawMessage) string {
	var in struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(input, &in) // a bad input shows as Bash()
	return "Bash(" + tools.CommandLine(in.Command) + ")"
}

// Definition returns the Bash tool's definition.
func (Tool) Definition() tools.Definition { return Definition() }

// CommandInput is the input that runs command.
func CommandInput(command string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{command})
	return b
}

// ShellInput takes one JSON argument, as any tool does: `Bash '{"command":"ls"}'`.
func (Tool) ShellInput(args []string) (json.RawMessage, *tools.ShellForm) {
	return tools.ShellInput(Name, args)
}

// ShellForm shows the command's output, its trailer on stderr, and its exit
// status (1 for a command that failed without one).
func (Tool) ShellForm(_ []string, res tools.ToolResult) tools.ShellForm {
	st, ok := res.Meta.(Outcome)
	if !ok { // bad input or no runner: the content is the message
		return tools.ShellForm{Stderr: "Error: " + res.Content, ExitCode: 1}
	}
	form := tools.ShellForm{ExitCode: st.ExitCode, Exit: st.Exited, OffloadErr: res.OffloadErr}
	if st.Failed() && form.ExitCode == 0 {
		form.ExitCode = 1
	}
	trailer := st.Trailer()
	form.Stderr = trailer
	if res.Offloaded != nil {
		form.Stdout, form.Offloaded = res.Content, res.Offloaded
		if trailer != "" {
			// The file ends with the trailer, which is shown on its own:
			// keep it out of the preview and the line count.
			off := *res.Offloaded
			off.Preview = strings.TrimSuffix(off.Preview, trailer+"\n")
			off.Lines = max(off.Lines-1, 0)
			form.Offloaded = &off
		}
		return form
	}
	text := res.Content
	if trailer != "" {
		text = strings.TrimSuffix(text, trailer+"\n")
	}
	form.Stdout = strings.TrimSuffix(text, "\n")
	return form
}
