package repl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/markdown"
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
		id   int
		ev   any // an agent.Event, or agentFinished
		next any // after a TextDelta: the event that ended the batch, if any
	}
	// agentFinished is the last event of a prompt.
	agentFinished struct {
		res agent.Result
		err error
		dir string // the working directory after the prompt (its Bash calls may cd)
	}
)

// agentEvents is the ordered stream of a prompt's events; the final one is
// agentFinished.
type agentEvents chan any

// runPrompt runs one prompt; its events, and then its end, arrive through ch.
func runPrompt(ctx context.Context, a Agent, dir func() string, prompt string, ch agentEvents) tea.Cmd {
	return func() tea.Msg {
		res, err := a.Run(ctx, prompt, func(ev agent.Event) { ch <- ev })
		ch <- agentFinished{res: res, err: err, dir: dir()}
		close(ch)
		return nil
	}
}

// maxTextBatch bounds the text waitAgent joins into one message.
const maxTextBatch = 1 << 20

// waitAgent waits for the next event of a prompt. Text deltas already
// waiting are joined into one: the shell then updates and draws once per
// batch, not once per delta (a fast stream sends thousands a second).
func waitAgent(id int, ch agentEvents) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		d, isText := ev.(agent.TextDelta)
		if !isText {
			return agentEventMsg{id: id, ev: ev}
		}
		var text []byte
		for {
			select {
			case next, ok := <-ch:
				if !ok {
					return agentEventMsg{id: id, ev: joined(d, text)}
				}
				nd, isText := next.(agent.TextDelta)
				if !isText {
					return agentEventMsg{id: id, ev: joined(d, text), next: next}
				}
				if text == nil {
					text = append(make([]byte, 0, 4<<10), d.Text...)
				}
				if text = append(text, nd.Text...); len(text) >= maxTextBatch {
					return agentEventMsg{id: id, ev: joined(d, text)}
				}
			default:
				return agentEventMsg{id: id, ev: joined(d, text)}
			}
		}
	}
}

// joined is the first delta of a batch, or the batch's text when there was
// more than one.
func joined(first agent.TextDelta, text []byte) agent.TextDelta {
	if text == nil {
		return first
	}
	return agent.TextDelta{Text: string(text)}
}

// markdownSplitWindow bounds the unprinted text searched for a finished
// Markdown block on each delta.
const markdownSplitWindow = 16 << 10

// handleAgentEvent shows one event: streamed text in the live area,
// finished text, tool calls and their results in the scrollback.
func (m *Model) handleAgentEvent(msg agentEventMsg) (tea.Model, tea.Cmd) {
	r := m.running
	if r == nil || r.id != msg.id {
		return m, nil
	}
	switch ev := msg.ev.(type) {
	case agent.TextDelta:
		m.streamText(r, ev.Text)
		if msg.next != nil { // the event that ended a batch of text
			return m.handleAgentEvent(agentEventMsg{id: msg.id, ev: msg.next})
		}
	case agent.TextDone:
		text := ev.Text
		if r.printed > 0 && r.printed <= len(text) {
			text = text[r.printed:]
		}
		r.stream, r.lines, r.printed = r.stream[:0], nil, 0
		m.println(m.renderMarkdown(text))
	case agent.TurnDone:
		m.spent = ev
		m.prompt.ctx = ctxText(ev.Context)
		m.layout() // the prompt shows it
		m.println(m.styles.Dim.Render(render.Sanitize(agent.CostLine(ev.Usage, ev.Model) + " · " + m.prompt.ctx)))
	case agent.Compacted:
		m.prompt.ctx = "" // unknown until the next request
		m.layout()
		m.println(m.styles.Dim.Render(fmt.Sprintf("Compacted the conversation: %d messages → %d (a summary, the plan verbatim, the last turn)", ev.Before, ev.After)))
	case agent.PermissionAsked:
		r.asking = &asking{q: ev.Question}
		m.layout()
	case agent.PermissionAnswered:
		r.asking = nil
		m.layout()
	case agent.ToolCall:
		m.println(m.styles.Accent.Render("● ") + render.Sanitize(m.cfg.Shell.Executor.Registry().Summary(ev.Use.Name, ev.Use.Input)))
	case agent.ToolDone:
		m.println(m.toolDoneText(ev))
	case agentFinished:
		return m.agentFinished(r, ev)
	}
	return m, waitAgent(r.id, r.events)
}

// streamText adds streamed text to the live area of the answer r, and
// prints the Markdown blocks it finishes.
func (m *Model) streamText(r *run, text string) {
	// Appending, and neutralising only the end that is shown, keeps a
	// long answer linear: 1 MB in 100-byte deltas took 37 s when the
	// whole text was copied and sanitised for every delta.
	r.stream = append(r.stream, text...)
	if m.cfg.Markdown != nil && len(r.stream) <= markdownSplitWindow && strings.IndexByte(text, '\n') >= 0 {
		// Print each finished block as it completes; the rest streams.
		// (A block longer than the window is printed whole at the end,
		// so that looking for its end stays linear.)
		if done, rest := markdown.SplitDone(string(r.stream)); done != "" {
			r.printed += len(done)
			r.stream = append(r.stream[:0], rest...)
			m.println(m.renderMarkdown(done) + "\n")
		}
	}
	r.lines = streamTail(r.stream, tailLines)
}

// toolDoneText is what a finished tool call prints: its result in a few
// lines, a warning when the result could not be offloaded, and with
// tracing on the wire form.
func (m *Model) toolDoneText(ev agent.ToolDone) string {
	text := m.resultSummary(ev)
	if ev.Result.OffloadErr != nil { // the file is elsewhere, or the result was kept in memory
		text += "\n" + render.StyleLines(m.styles.Warning, render.Sanitize(offload.Warning(ev.Result.OffloadErr)))
	}
	if m.trace { // the wire form, for people learning the protocol
		for _, t := range router.TraceLines(router.Output{Call: &ev.Use, Result: &ev.Result}) {
			text += "\n" + m.styles.Dim.Render(render.Sanitize(t))
		}
	}
	return text
}

// agentFinished ends the agent's turn r: the text cut off, if any, and how
// it ended are printed and the prompt comes back.
func (m *Model) agentFinished(r *run, ev agentFinished) (tea.Model, tea.Cmd) {
	partial := string(r.stream) // text cut off by an interrupt or a failure
	m.running.cancel()
	m.running = nil
	m.hint = ""
	if ev.dir != "" {
		m.dir = ev.dir
	}
	m.layout()
	var text string
	if partial != "" {
		text = render.SanitizeOutput(partial) + "\n"
	}
	switch {
	case ev.err == nil:
		m.prompt.status = 0
	case errors.Is(ev.err, agent.ErrInterrupted):
		m.prompt.status = 130
		if m.leaving { // Ctrl+D twice: no next prompt
			text += m.styles.Warning.Render("Interrupted by Ctrl+D: the shell leaves")
		} else {
			text += m.styles.Warning.Render("Interrupted: the next prompt continues the conversation")
		}
	default:
		m.prompt.status = 1
		text += render.StyleLines(m.styles.Error, render.Sanitize(ev.err.Error()))
	}
	m.layout() // the prompt shows the status
	m.println(strings.TrimSuffix(text, "\n"))
	m.noteDropped()
	m.eofArmed = false
	if m.leaving { // Ctrl+D twice: the turn has ended, the shell leaves
		return m.quit()
	}
	return m.finish(nil)
}

// resultLines is how many rows a tool result takes at most: its last lines,
// the first row saying how many more there are when it has more.
const resultLines = 4

// resultSummary is a tool result in a few dim lines.
func (m *Model) resultSummary(ev agent.ToolDone) string {
	res := ev.Result
	text := res.Content
	if res.Offloaded != nil {
		// Where the whole is, the path on a row of its own so that a
		// narrow terminal cuts neither the count nor the path's start.
		text = fmt.Sprintf("%s, offloaded to file:\n%s", render.Lines(res.Offloaded.Lines), res.Offloaded.Path)
	}
	text = render.SanitizeOutput(strings.TrimRight(text, "\n"))
	lines := lastLines(text, resultLines)
	if len(lines) == 0 {
		lines = []string{"(no output)"}
	}
	if total := strings.Count(text, "\n") + 1; total > resultLines {
		// The last lines, below a row saying how many are not shown.
		hidden := total - (resultLines - 1)
		lines = append([]string{fmt.Sprintf("… %d more lines", hidden)}, lastLines(text, resultLines-1)...)
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

// streamWindow is how much of the end of a streaming answer streamTail looks
// at: enough for tailLines lines of any sensible width.
const streamWindow = 4 << 10

// streamTail returns the last n lines of text streaming in, neutralised, in
// time bounded by streamWindow whatever the length of text. A last line
// longer than the window shows its end.
func streamTail(text []byte, n int) []string {
	if len(text) > streamWindow {
		text = text[len(text)-streamWindow:]
		for len(text) > 0 && !utf8.RuneStart(text[0]) {
			text = text[1:]
		}
	}
	// Start at the line n+1 lines from the end (a trailing newline ends the
	// last line, as lastLines counts).
	end := len(text)
	for end > 0 && text[end-1] == '\n' {
		end--
	}
	start := 0
	for i := 0; i < n; i++ {
		nl := bytes.LastIndexByte(text[:end], '\n')
		if nl < 0 {
			start = 0
			break
		}
		start, end = nl+1, nl
	}
	return lastLines(render.SanitizeOutput(string(text[start:])), n)
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
func (m *Model) agentLabel() string {
	for _, it := range m.snap.Items {
		if it.Status == todo.StatusInProgress {
			return render.Sanitize(it.ActiveForm) + "…"
		}
	}
	return "Thinking…"
}
