// The plan's progress where a person looks while an agent works: the terminal's title ("3/7 ▸ Writing tests", OSC 2) and, on
// terminals known to draw it, the OSC 9;4 progress indicator (a bar in the
// tab or the taskbar). The title in place before is pushed on the
// terminal's title stack (XTWINOPS 22) and popped back on Close. OSC 9;4 is
// sent only to terminals detected from their environment, never guessed:
// Windows Terminal (WT_SESSION), WezTerm, Ghostty (TERM_PROGRAM), ConEmu
// (ConEmuANSI=ON) and iTerm2 3.6 or later (TERM_PROGRAM_VERSION). Inside
// tmux or screen nothing is detected: their own title is theirs.

package painter

import (
	"io"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Escape sequences.
const (
	pushTitle     = "\x1b[22;2t"
	popTitle      = "\x1b[23;2t"
	progressClear = "\x1b]9;4;0;0\x07"
)

// ProgressEnabled reports whether progress is wanted: not with --no-progress
// (noFlag) nor TODO_SHELL_NO_PROGRESS set to anything but "" or "0".
func ProgressEnabled(noFlag bool, getenv func(string) string) bool {
	v := getenv("TODO_SHELL_NO_PROGRESS")
	return !noFlag && (v == "" || v == "0")
}

// ProgressBarSupported reports whether the terminal described by getenv is one known
// to draw OSC 9;4 progress.
func ProgressBarSupported(getenv func(string) string) bool {
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") || strings.HasPrefix(getenv("TERM"), "tmux") {
		return false
	}
	switch getenv("TERM_PROGRAM") {
	case "WezTerm", "ghostty":
		return true
	case "iTerm.app":
		return versionAtLeast(getenv("TERM_PROGRAM_VERSION"), 3, 6)
	}
	return getenv("WT_SESSION") != "" || getenv("ConEmuANSI") == "ON"
}

// versionAtLeast reports whether v ("3.6.1") is at least major.minor.
func versionAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	a, err1 := strconv.Atoi(parts[0])
	b, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return a > major || a == major && b >= minor
}

// ProgressTitle is the progress of list as a title: "3/7 ▸ Writing tests" (the
// item in progress), "3/7" when none is, "" for an empty list. The item's
// text is the plan's own: Set neutralises the title where it writes it.
func ProgressTitle(list []todo.Item) string {
	if len(list) == 0 {
		return ""
	}
	done, _, _ := todo.Snapshot{Items: list}.Counts()
	s := strconv.Itoa(done) + "/" + strconv.Itoa(len(list))
	for _, it := range list {
		if it.Status == todo.StatusInProgress {
			s += " ▸ " + it.ActiveForm
			break
		}
	}
	return s
}

// Progress writes the title and the progress bar to a terminal.
type Progress struct {
	w      io.Writer
	bar    bool
	pushed bool
	last   string
}

// NewProgress returns a Progress writing to w; bar says whether the OSC 9;4
// indicator is drawn too (SupportsBar).
func NewProgress(w io.Writer, bar bool) *Progress { return &Progress{w: w, bar: bar} }

// Set shows the progress of list: the title and the bar (cleared when the
// list is empty or all done).
func (p *Progress) Set(list []todo.Item) {
	title := ProgressTitle(list)
	var b strings.Builder
	if !p.pushed {
		b.WriteString(pushTitle)
		p.pushed = true
	}
	if title != p.last {
		b.WriteString("\x1b]2;" + render.Sanitize(title) + "\x07")
	}
	if p.bar && title != p.last {
		done, _, _ := todo.Snapshot{Items: list}.Counts()
		if len(list) == 0 || done == len(list) {
			b.WriteString(progressClear)
		} else {
			b.WriteString("\x1b]9;4;1;" + strconv.Itoa(done*100/len(list)) + "\x07")
		}
	}
	p.last = title
	if b.Len() > 0 {
		_, _ = io.WriteString(p.w, b.String())
	}
}

// Close clears the bar and gives the terminal its title back.
func (p *Progress) Close() {
	if !p.pushed {
		return
	}
	s := popTitle
	if p.bar {
		s = progressClear + s
	}
	_, _ = io.WriteString(p.w, s)
	p.pushed = false
}
