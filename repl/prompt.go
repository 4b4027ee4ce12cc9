package repl

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
)

// promptState is what the prompt shows besides the directory, computed
// when a line finishes (never in View).
type promptState struct {
	branch string // the directory's git branch, "" outside a repository
	status int    // the last line's exit status
}

// promptParts returns the prompt's plain text: "dir (branch) ✗1 ❯ " in the
// shell, with "✦" instead of "❯" in agent mode.
func (m Model) promptParts() (text string) {
	base := filepath.Base(m.dir)
	if base == "." || base == "" || m.dir == "" {
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
