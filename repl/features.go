package repl

import (
	"maps"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/complete"
	histfile "github.com/todo-shell/todo-shell/repl/history"
	"github.com/todo-shell/todo-shell/repl/markdown"
	"github.com/todo-shell/todo-shell/router"
)

// searchState is a Ctrl+R search in progress. The Model holds it by
// pointer: the search advances in place as keys arrive.
type searchState struct {
	s     *histfile.Search
	draft string // what was typed before Ctrl+R, restored on cancel
}

// tabState is a Tab completion in progress: a second Tab cycles through
// its candidates.
type tabState struct {
	value string // the input after the last Tab, to tell if it changed
	start int    // byte offset of the word being completed
	end   int    // byte offset of the end of what Tab inserted
	cands []complete.Candidate
	idx   int // the candidate inserted, -1 before cycling
	list  []string
}

// maxListRows is the most rows a Tab listing takes.
const maxListRows = 10

// startSearch is Ctrl+R: search the history backwards from the newest.
func (m *Model) startSearch() (tea.Model, tea.Cmd) {
	m.search = &searchState{s: histfile.NewSearch(m.history.entries()), draft: m.text()}
	m.tab = nil
	return m, nil
}

// searchKey handles a key while searching.
func (m *Model) searchKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	s := m.search.s
	k := msg.Keystroke()
	switch {
	case typedText(msg) != "":
		s.Type(typedText(msg))
		return m, nil
	case k == "backspace":
		s.Backspace()
		return m, nil
	case k == "ctrl+r":
		s.Older()
		return m, nil
	case k == "esc" || k == "ctrl+g" || k == "ctrl+c":
		draft := m.search.draft
		m.search = nil
		m.setInput(draft)
		return m, nil
	case k == "enter":
		text, draft := s.Text(), m.search.draft
		m.search = nil
		if text == "" {
			m.setInput(draft)
			return m, nil
		}
		m.setInput("")
		return m.submit(text)
	}
	// Right, End and any other key: accept the match for editing (and let
	// an editing key act on it, as bash does).
	text := s.Text()
	if text == "" {
		text = m.search.draft
	}
	m.search = nil
	m.setInput(text)
	m.history.reset()
	if k == "right" || k == "end" {
		return m, nil
	}
	return m.handleKey(msg)
}

// searchPaste types a paste into the search, its lines joined by spaces.
func (m *Model) searchPaste(text string) (tea.Model, tea.Cmd) {
	m.search.s.Type(strings.ReplaceAll(normalizeNewlines(text), "\n", " "))
	return m, nil
}

// tabKey is Tab: complete the word before the cursor; with several
// candidates insert what they share and list them; a second Tab cycles.
func (m *Model) tabKey() (tea.Model, tea.Cmd) {
	c := m.cfg.Completer
	if c == nil {
		return m, nil
	}
	value := m.inputValue()
	if t := m.tab; t != nil && t.value == value && len(t.cands) > 1 {
		t.idx = (t.idx + 1) % len(t.cands)
		ins := t.cands[t.idx].Insert
		value = value[:t.start] + ins + value[t.end:]
		t.end = t.start + len(ins)
		t.value = value
		m.setInputCursor(value, t.end)
		return m, nil
	}
	cur := m.inputCursor()
	res := c.Complete(value, cur)
	if len(res.Candidates) == 0 {
		m.tab = nil
		return m, nil
	}
	ins := res.Common
	if len(ins) < res.End-res.Start {
		ins = value[res.Start:res.End] // never lose typed text
	}
	value = value[:res.Start] + ins + value[res.End:]
	t := &tabState{value: value, start: res.Start, end: res.Start + len(ins), cands: res.Candidates, idx: -1}
	if len(res.Candidates) > 1 {
		names := make([]string, len(res.Candidates))
		for i, cand := range res.Candidates {
			names[i] = render.Sanitize(cand.Display)
		}
		rows := maxListRows
		if m.height > 0 { // never more than the screen holds under the prompt
			rows = max(min(rows, m.height-3), 1)
		}
		t.list = complete.Columns(names, max(m.width-1, 10), rows)
	}
	m.tab = t
	at := t.end
	if c := res.Candidates[0]; len(res.Candidates) == 1 && c.Cursor > 0 && ins == c.Insert {
		at = res.Start + c.Cursor // inside the template, where typing starts
	}
	m.setInputCursor(value, at)
	return m, nil
}

// tabList is the listing under the prompt, "" for none.
func (m *Model) tabList() string {
	if m.tab == nil || len(m.tab.list) == 0 {
		return ""
	}
	return render.StyleLines(m.styles.Dim, strings.Join(m.tab.list, "\n"))
}

// inputValue is the text being typed.
func (m *Model) inputValue() string { return m.text() }

// inputCursor is the cursor's byte offset in the input.
func (m *Model) inputCursor() int {
	lines := strings.Split(m.text(), "\n")
	row := min(m.input.Line(), len(lines)-1)
	off := 0
	for _, l := range lines[:row] {
		off += len(l) + 1
	}
	li := m.input.LineInfo()
	r := []rune(lines[row])
	col := min(li.StartColumn+li.ColumnOffset, len(r))
	return off + len(string(r[:col]))
}

// setInputCursor replaces the text and puts the cursor at byte offset at.
func (m *Model) setInputCursor(v string, at int) {
	m.placeInput(v, at)
	m.layout()
}

// placeInput replaces the text, scrolled to its top, and puts the cursor
// at byte offset at.
func (m *Model) placeInput(v string, at int) {
	at = min(at, len(v))
	m.input.SetValue(toInput(v[:at])) // the cursor at the end
	if rest := v[at:]; rest != "" {
		m.input.InsertString(toInput(rest))
		for range strings.Count(rest, "\n") {
			m.input.CursorUp()
		}
		head := v[:at]
		if i := strings.LastIndexByte(head, '\n'); i >= 0 {
			head = head[i+1:]
		}
		m.input.SetCursorColumn(len([]rune(head)))
	}
}

// frontBuiltin runs the builtins the REPL itself implements; ok is false
// for the others.
func (m *Model) frontBuiltin(line router.Line) (*Model, tea.Cmd, bool) {
	switch line.Name {
	case "compact":
		if m.cfg.Agent == nil {
			return m, nil, false
		}
		next, cmd := m.startCompact("/compact")
		return next, cmd, true
	case "cost":
		if m.cfg.Agent == nil {
			return m, nil, false
		}
		m.println(costText(m.spent))
		return m, nil, true
	case "help":
		text := m.cfg.Shell.Builtin(line).Stdout
		if m.cfg.Agent != nil { // plain lines are prompts, not bash
			text = router.AgentHelpText()
		}
		m.println(render.WrapHelp(text, max(m.width-1, 20)))
		return m, nil, true
	case "offloads":
		// Counting lines reads every file: off the event loop.
		dir, cmds := m.offloadDir(), maps.Clone(m.offloaded)
		return m, func() tea.Msg {
			es, err := listOffloads(dir, cmds)
			if err != nil {
				return offloadsMsg{err: err}
			}
			countOffloadLines(es)
			return offloadsMsg{text: formatOffloads(es)}
		}, true
	case "open":
		es, _ := listOffloads(m.offloadDir(), m.offloaded)
		e, err := pickOffload(es, line.Args)
		if err != nil {
			m.prompt.status = 1
			m.println(render.StyleLines(m.styles.Error, render.Sanitize(err.Error())))
			return m, nil, true
		}
		next, cmd := m.attach(pagerCommand(m.cfg.Pager, e.Path), "/open "+line.Args)
		return next, cmd, true
	case "tty":
		if strings.TrimSpace(line.Args) == "" {
			m.prompt.status = 1
			m.println(m.styles.Error.Render("Usage: /tty COMMAND (runs COMMAND attached to the terminal)"))
			return m, nil, true
		}
		next, cmd := m.attach(line.Args, "/tty "+line.Args)
		return next, cmd, true
	}
	return m, nil, false
}

// offloadsMsg carries the /offloads listing.
type offloadsMsg struct {
	text string
	err  error
}

// showOffloads prints the /offloads listing.
func (m *Model) showOffloads(msg offloadsMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.prompt.status = 1
		m.layout()
		m.println(render.StyleLines(m.styles.Error, render.Sanitize(msg.err.Error())))
		return m, nil
	}
	m.println(render.SanitizeOutput(msg.text))
	return m, nil
}

// attach starts a command attached to the terminal.
func (m *Model) attach(command, shown string) (*Model, tea.Cmd) {
	m.runs++
	r := &run{id: m.runs, line: shown, started: m.cfg.Now(), cancel: func() {}, tail: newTailBuffer(1), handover: &handover{}}
	m.running = r
	cmd := m.runAttached(r.id, command, r.handover)
	return m, cmd
}

// attachedDone prints how an attached program ended.
func (m *Model) attachedDone(msg handoverDoneMsg) (tea.Model, tea.Cmd) {
	if m.running == nil || m.running.id != msg.id {
		return m, nil
	}
	m.running = nil
	m.hint = ""
	out := attachedOutput(msg)
	m.prompt.status = out.ExitCode
	m.layout()
	var parts []string
	if m.trace {
		for _, t := range router.TraceLines(out) {
			parts = append(parts, m.styles.Dim.Render(render.Sanitize(t)))
		}
	}
	note := "(ran in the terminal; exit status " + itoa(out.ExitCode) + ")"
	switch {
	case msg.err != nil:
		parts = append(parts, render.StyleLines(m.styles.Error, render.Sanitize(out.Result.Content)))
	case out.ExitCode != 0:
		parts = append(parts, m.styles.Error.Render(note))
	default:
		parts = append(parts, m.styles.Dim.Render(note))
	}
	if kept := keptText(msg.kept); kept != "" {
		// Keys typed for the program that it could not be given: shown in
		// the input, not run.
		m.input.InsertString(toInput(kept))
		m.layout()
		parts = append(parts, m.styles.Dim.Render("(what you typed before the program had the terminal is in the input, not run)"))
	}
	m.println(strings.Join(parts, "\n"))
	return m.finish(nil)
}

// keptText is the text of keys kept from a program: its printable text and
// line ends (a typed Enter ends a line), nothing of other control keys or
// escape sequences.
func keptText(b []byte) string {
	s := ansi.Strip(normalizeNewlines(string(b)))
	return strings.TrimRight(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s), "\n")
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// offloadDir is this session's offload directory.
func (m *Model) offloadDir() string {
	o := m.cfg.Shell.Offload
	return o.Dir + "/" + o.Session
}

// noteOffload remembers the command that made an offloaded result.
func (m *Model) noteOffload(out router.Output, line string) {
	if out.Offloaded == nil || out.Call == nil {
		return
	}
	m.offloaded[out.Call.ID] = line
}

// renderMarkdown renders a finished part of an answer, or returns it
// sanitized when Markdown is off.
func (m *Model) renderMarkdown(text string) string {
	if m.cfg.Markdown == nil {
		return render.SanitizeOutput(text)
	}
	return markdown.New(*m.cfg.Markdown, max(min(m.width-1, 100), 20)).Render(render.SanitizeOutput(text))
}
