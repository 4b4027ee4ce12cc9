package repl

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/gitinfo"
	"github.com/todo-shell/todo-shell/render"
)

// promptState is what the prompt shows besides the directory, computed when
// a line finishes (never in View).
type promptState struct {
	dir    string // the working directory
	branch string // its git branch, "" outside a repository
	status int    // the last line's exit status
}

// refreshPrompt reads the directory and its git branch; called at start and
// after every line, so the prompt is right as soon as a `cd` finishes.
func (m *Model) refreshPrompt() {
	// The branch is read again each time: a line may have switched it.
	m.prompt.dir = m.cfg.Dir()
	m.prompt.branch = ""
	if m.prompt.dir != "" {
		m.prompt.branch = gitinfo.Branch(m.prompt.dir)
	}
}

// promptParts returns the prompt's plain text: "dir (branch) ✗1 ❯ " in the
// shell, with "✦" instead of "❯" in agent mode.
func (m Model) promptParts() (text string) {
	base := filepath.Base(m.prompt.dir)
	if base == "." || base == "" || m.prompt.dir == "" {
		base = "todo-shell"
	}
	var b strings.Builder
	b.WriteString(render.Sanitize(base))
	if m.prompt.branch != "" {
		b.WriteString(" (" + render.Sanitize(m.prompt.branch) + ")")
	}
	if m.prompt.status != 0 {
		fmt.Fprintf(&b, " ✗%d", m.prompt.status)
	}
	if m.cfg.Agent != nil {
		b.WriteString(" ✦ ")
	} else {
		b.WriteString(" ❯ ")
	}
	return b.String()
}

// continuationPrompt is "… " aligned under the end of the main prompt.
func continuationPrompt(main string) string {
	return strings.Repeat(" ", max(ansi.StringWidth(main)-2, 0)) + "… "
}
