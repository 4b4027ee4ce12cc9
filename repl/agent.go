package repl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/todo-shell/todo-shell/agent"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Agent runs prompts; *agent.Agent does. Set Config.Agent for agent mode:
// plain lines become prompts, '!' lines run bash.
type Agent interface {
	Run(ctx context.Context, prompt string, emit func(agent.Event)) (agent.Result, error)
}

type (
	// agentEventMsg carries one event of a running prompt.
	agentEventMsg struct {
		id int
		ev any // an agent.Event, or agentFinished
	}
	// agentFinished is the last event of a prompt.
	agentFinished struct {
		res agent.Result
		err error
	}
)

// agentEvents is the ordered stream of a prompt's events; the final one is
// agentFinished.
type agentEvents chan any

// runPrompt runs one prompt; its events, and then its end, arrive through ch.
func runPrompt(ctx context.Context, a Agent, prompt string, ch agentEvents) tea.Cmd {
	return func() tea.Msg {
		res, err := a.Run(ctx, prompt, func(ev agent.Event) { ch <- ev })
		ch <- agentFinished{res: res, err: err}
		close(ch)
		return nil
	}
}

// waitAgent waits for the next event of a prompt.
func waitAgent(id int, ch agentEvents) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		return agentEventMsg{id: id, ev: ev}
	}
}

// handleAgentEvent shows one event: streamed text in the live area,
// finished text, tool calls and their results in the scrollback.
func (m Model) handleAgentEvent(msg agentEventMsg) (tea.Model, tea.Cmd) {
	r := m.running
	if r == nil || r.id != msg.id {
		return m, nil
	}
	var print tea.Cmd
	switch ev := msg.ev.(type) {
	case agent.TextDelta:
		r.stream += ev.Text
		r.lines = lastLines(render.SanitizeOutput(r.stream), tailLines)
	case agent.TextDone:
		r.stream, r.lines = "", nil
		print = m.println(render.SanitizeOutput(ev.Text))
	case agent.ToolCall:
		print = m.println(m.styles.Accent.Render("● ") + render.Sanitize(callSummary(ev.Use.Name, ev.Use.Input)))
	case agent.ToolDone:
		text := m.resultSummary(ev)
		if ev.Result.OffloadErr != nil { // the file is elsewhere, or the result was kept in memory
			text += "\n" + m.styles.Warning.Render(render.Sanitize(offload.Warning(ev.Result.OffloadErr)))
		}
		if m.trace { // the wire form, for people learning the protocol
			for _, t := range router.TraceLines(router.Output{Call: &ev.Use, Result: &ev.Result}) {
				text += "\n" + m.styles.Dim.Render(render.Sanitize(t))
			}
		}
		print = m.println(text)
	case agentFinished:
		partial := r.stream // text cut off by an interrupt or a failure
		m.running.cancel()
		m.running = nil
		m.hint = ""
		m.layout()
		var text string
		if partial != "" {
			text = render.SanitizeOutput(partial) + "\n"
		}
		switch {
		case ev.err == nil:
		case errors.Is(ev.err, agent.ErrInterrupted):
			text += m.styles.Warning.Render("Interrupted: the next prompt continues the conversation")
		default:
			text += m.styles.Error.Render(render.Sanitize(ev.err.Error()))
		}
		return m.finish(m.println(strings.TrimSuffix(text, "\n")))
	}
	return m, tea.Batch(print, waitAgent(r.id, r.events))
}

// callSummary is a tool call in one line: Bash(ls -la), TodoWrite(3 todos).
func callSummary(name string, input json.RawMessage) string {
	switch name {
	case "Bash":
		var in struct {
			Command string `json:"command"`
		}
		json.Unmarshal(input, &in)
		return fmt.Sprintf("Bash(%s)", oneLine(in.Command))
	case todo.WriteName:
		var in struct {
			Todos []json.RawMessage `json:"todos"`
		}
		json.Unmarshal(input, &in)
		return fmt.Sprintf("TodoWrite(%d todos)", len(in.Todos))
	}
	return fmt.Sprintf("%s(%s)", name, oneLine(string(input)))
}

// resultSummary is a tool result in a few dim lines.
func (m Model) resultSummary(ev agent.ToolDone) string {
	res := ev.Result
	text := res.Content
	if res.Offloaded != nil {
		text = fmt.Sprintf("%s (%d lines)", res.Content, res.Offloaded.Lines)
	}
	lines := lastLines(render.SanitizeOutput(strings.TrimRight(text, "\n")), 4)
	if len(lines) == 0 {
		lines = []string{"(no output)"}
	}
	style := m.styles.Dim
	if res.IsError {
		style = m.styles.Error
	}
	for i, l := range lines {
		prefix := "    "
		if i == 0 {
			prefix = "  ⎿ "
		}
		lines[i] = style.Render(m.fit(prefix + l))
	}
	return strings.Join(lines, "\n")
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	all := strings.Split(s, "\n")
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}

// agentLabel is the spinner's text while the agent works: the in-progress
// todo's activeForm, or a neutral verb.
func (m Model) agentLabel() string {
	for _, it := range m.snap.Items {
		if it.Status == todo.StatusInProgress {
			return render.Sanitize(it.ActiveForm) + "…"
		}
	}
	return "Thinking…"
}
