package repl

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// The textarea the shell types into turns every tab it is given into four
// spaces and drops other control characters, so a pasted Makefile or Go
// file would reach its command changed. The shell keeps such characters
// in the textarea as stand-ins instead, one rune for one rune, and turns
// them back when it reads the text: a tab is shown as ⇥, another control
// character as its Control Picture (␛ for ESC). A character that is itself
// one of these stand-ins is kept as a private-use rune, so every text comes
// back exactly as it went in (but for those private-use runes themselves,
// which no one types).
const (
	tabShown    = '⇥'
	pictureBase = 0x2400  // Control Pictures: ␀ is U+2400
	pictureDel  = 0x2421  // ␡
	escapedBase = 0xf0000 // a literal stand-in, in Supplementary Private Use Area-A
)

// toInput turns text into what the textarea holds.
func toInput(s string) string {
	if !needsStandIns(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r == '\t':
			b.WriteRune(tabShown)
		case r < 0x20:
			b.WriteRune(pictureBase + r)
		case r == 0x7f:
			b.WriteRune(pictureDel)
		case isStandIn(r):
			b.WriteRune(escapedBase + r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// fromInput turns what the textarea holds back into the text typed.
func fromInput(s string) string {
	if !hasStandIns(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == tabShown:
			b.WriteByte('\t')
		case r >= pictureBase && r < pictureBase+0x20:
			b.WriteByte(byte(r - pictureBase))
		case r == pictureDel:
			b.WriteByte(0x7f)
		case r >= escapedBase && isStandIn(r-escapedBase):
			b.WriteRune(r - escapedBase)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isStandIn reports whether r stands for a control character in the
// textarea.
func isStandIn(r rune) bool {
	return r == tabShown || (r >= pictureBase && r <= pictureDel)
}

// needsStandIns reports whether s holds a control character other than a
// newline, or a rune that looks like a stand-in.
func needsStandIns(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return strings.IndexFunc(s, func(r rune) bool {
				return (r < 0x20 && r != '\n') || r == 0x7f || isStandIn(r)
			}) >= 0
		}
	}
	return false
}

// hasStandIns reports whether s holds a stand-in.
func hasStandIns(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.IndexFunc(s, func(r rune) bool {
				return isStandIn(r) || (r >= escapedBase && isStandIn(r-escapedBase))
			}) >= 0
		}
	}
	return false
}

// text is the input's text as typed.
func (m *Model) text() string { return fromInput(m.input.Value()) }

// isClear reports whether a bash line is `clear` alone, which the shell
// does itself (the command's escape sequences would be neutralised).
func isClear(text string) bool { return strings.TrimSpace(text) == "clear" }

// clears reports whether a submitted line clears the screen: `clear`, or
// /clear.
func (m *Model) clears(text string) bool {
	line := router.Classify(text, m.cfg.Shell.Executor)
	switch line.Kind {
	case router.Builtin:
		return line.Name == "clear"
	case router.Bash:
		return (m.cfg.Agent == nil || line.Forced) && isClear(line.Text)
	}
	return false
}

// toFirstRow puts the cursor at the end of the input's first line: a
// multi-line entry recalled with Up is left on its first row, so Up again
// goes to the entry before it, as in zsh and fish, instead of climbing the
// entry row by row.
func (m *Model) toFirstRow() {
	for m.input.Line() > 0 {
		m.input.CursorUp()
	}
	m.input.CursorEnd()
	m.layout()
}

// shellText reports whether text is read as a shell line, whose open
// quotes and constructs wait for more lines: always outside agent mode; in
// agent mode a line forced to bash (!…) or an agent command, never a
// prompt to Claude, whose quotes and words are prose ("don't", "function").
func (m *Model) shellText(text string) bool {
	if m.cfg.Agent == nil {
		return true
	}
	line := router.Classify(text, m.cfg.Shell.Executor)
	return line.Kind == router.Agent || line.Kind == router.Bash && line.Forced
}

// waitLabels says, for each line of text, what the lines before it wait
// for (see bashline.Status.Label): "" for the first line and after
// complete text.
func (m *Model) waitLabels(text string) []string {
	lines := strings.Split(text, "\n")
	labels := make([]string, len(lines))
	if !m.shellText(text) {
		return labels
	}
	var s bashline.Scanner
	defer s.Close()
	for i, l := range lines[:len(lines)-1] {
		s.Line(l)
		labels[i+1] = s.Status().Label()
	}
	return labels
}

// labelledPrompt is the continuation prompt of a line that label tells
// why the shell waits for, as zsh's "quote>" and "heredoc>": the longest
// form that fits under the main prompt, right-aligned, else "… ".
func labelledPrompt(main, label string) string {
	w := ansi.StringWidth(main)
	var forms []string
	switch {
	case label == "quote":
		forms = []string{"quote> ", "'> "}
	case label == "dquote":
		forms = []string{"dquote> ", `"> `}
	case label == `\`:
		forms = []string{`\> `}
	case strings.HasPrefix(label, "heredoc "):
		forms = []string{render.Sanitize(label) + "> ", "heredoc> ", "<<> "}
	case label != "": // an open construct: if, for, pipe, cmdsubst…
		forms = []string{render.Sanitize(label) + "> "}
	}
	for _, f := range forms {
		if fw := ansi.StringWidth(f); fw <= w {
			return strings.Repeat(" ", w-fw) + f
		}
	}
	return continuationPrompt(main)
}

// inputRowPrompts counts the rows the input's text takes at width,
// soft-wrapped as the textarea wraps it (see wrappedRows), and gives each
// row its prompt: the first row of each line
// after the first says what the line waits for, a row that a long line
// wraps onto gets "… ". The prompts are nil for text of one line.
func (m *Model) inputRowPrompts(main string, width int) (int, []string) {
	value := m.input.Value()
	if strings.IndexByte(value, '\n') < 0 {
		return wrappedRows(value, max(width, 1)), nil
	}
	labels := m.waitLabels(fromInput(value))
	cont := continuationPrompt(main)
	var prompts []string
	for i, l := range strings.Split(value, "\n") {
		n := wrappedRows(l, max(width, 1))
		for r := range n {
			switch {
			case i == 0 && r == 0:
				prompts = append(prompts, main)
			case r == 0:
				prompts = append(prompts, labelledPrompt(main, labels[i]))
			default:
				prompts = append(prompts, cont)
			}
		}
	}
	return len(prompts), prompts
}

// withTail gives an offloaded result's preview its last lines too (a
// build or test failure is at the end): the first lines, "… N more lines",
// the last lines, as the preview's own lines. It reads the file.
func withTail(out router.Output) *tools.Offloaded {
	o := *out.Offloaded
	if _, more := render.Preview(&o); more == 0 {
		return out.Offloaded
	}
	last, err := offload.TailLines(o.Path, render.PreviewTail+1)
	if err != nil {
		return out.Offloaded
	}
	if n := len(last); n > 0 && out.Stderr != "" && last[n-1] == out.Stderr {
		last = last[:n-1] // the trailer, printed under the preview
	}
	lines := render.PreviewText(render.PreviewAround(&o, last))
	o.Preview = strings.Join(lines, "\n") + "\n"
	o.Lines = len(lines)
	return &o
}
