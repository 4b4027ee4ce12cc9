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
	ctx    string // agent mode: how full the context window is ("ctx 41%"), "" before a request
}

// promptParts returns the prompt's plain text: "dir (branch) ✗1 ❯ " in the
// shell, "dir (branch) ✗1 ctx 41% ✦ " in agent mode (the share of the
// context window the last request filled, once there was one).
func (m *Model) promptParts() (text string) {
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
		if m.prompt.ctx != "" {
			b.WriteString(" " + m.prompt.ctx)
		}
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

// ctxText is how full the context window is, for the prompt: "ctx 41%".
func ctxText(share float64) string {
	return fmt.Sprintf("ctx %.0f%%", 100*share)
}
