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
// context window the last request filled, once there was one), shortened
// to the terminal's width (see fitPrompt).
func (m *Model) promptParts() (text string) {
	base := filepath.Base(m.dir)
	if base == "." || base == "" || m.dir == "" {
		base = "todo-shell"
	}
	var tail strings.Builder // what follows the directory and the branch
	if m.prompt.status != 0 {
		fmt.Fprintf(&tail, " ✗%d", m.prompt.status)
	}
	ctx := ""
	if m.cfg.Agent != nil {
		if m.prompt.ctx != "" {
			ctx = " " + m.prompt.ctx
		}
		tail.WriteString(ctx + " ✦ ")
	} else {
		tail.WriteString(" ❯ ")
	}
	return fitPrompt(render.Sanitize(base), render.Sanitize(m.prompt.branch), tail.String(), ctx, promptRoom(m.width))
}

// Shortened, the branch and the directory keep at least this many cells,
// "…" included, before the branch goes and the directory takes the room.
const (
	promptMinBranch = 8
	promptMinDir    = 8
)

// promptRoom is the most cells the prompt takes in a terminal width
// columns wide (0: unknown, no limit): half the row less its margin, so
// what is typed always has the other half (at least ~20 columns from 42
// up, the whole row's width less the prompt's below).
func promptRoom(width int) int {
	if width <= 0 {
		return 0
	}
	return max((width-1)/2, 2)
}

// fitPrompt joins the prompt "dir (branch)" + tail in at most room cells
// (0: no limit), shortening with "…" in this order until it fits: the
// branch (to promptMinBranch cells), the directory (to promptMinDir), the
// branch dropped, the directory down to "…", the agent's ctx share (a part
// of tail) dropped; the last resort cuts what is left but "❯ " or "✦ ".
func fitPrompt(dir, branch, tail, ctx string, room int) string {
	join := func(d, b, t string) string {
		if b != "" {
			return d + " (" + b + ")" + t
		}
		return d + t
	}
	full := join(dir, branch, tail)
	if room <= 0 || ansi.StringWidth(full) <= room {
		return full
	}
	cut := func(s string, w int) string {
		if ansi.StringWidth(s) <= w {
			return s
		}
		return ansi.Truncate(s, max(w, 1), "…")
	}
	tw, dw := ansi.StringWidth(tail), ansi.StringWidth(dir)
	if branch != "" {
		// The branch first: " (" and ")" take 3 cells.
		if bw := room - tw - dw - 3; bw >= promptMinBranch {
			return join(dir, cut(branch, bw), tail)
		}
		b := cut(branch, promptMinBranch)
		if d := room - tw - ansi.StringWidth(b) - 3; d >= promptMinDir {
			return join(cut(dir, d), b, tail)
		}
	}
	if d := room - tw; d >= 1 {
		return join(cut(dir, d), "", tail)
	}
	if ctx != "" {
		return fitPrompt(dir, "", strings.Replace(tail, ctx, "", 1), "", room)
	}
	// Only the status and the marker would not fit: keep the marker.
	mark := tail[strings.LastIndexByte(strings.TrimRight(tail, " "), ' ')+1:]
	if left := room - ansi.StringWidth(mark); left > 0 {
		return cut(strings.TrimSuffix(tail, mark), left) + mark
	}
	return mark
}

// continuationPrompt is "… " aligned under the end of the main prompt.
func continuationPrompt(main string) string {
	return strings.Repeat(" ", max(ansi.StringWidth(main)-2, 0)) + "… "
}

// ctxText is how full the context window is, for the prompt: "ctx 41%".
func ctxText(share float64) string {
	return fmt.Sprintf("ctx %.0f%%", 100*share)
}
