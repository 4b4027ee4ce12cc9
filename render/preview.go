package render

import (
	"strings"

	"github.com/todo-shell/todo-shell/tools"
)

// Preview splits the preview of an offloaded result into its lines and
// says how many lines of the full text it leaves out. The lines are not
// neutralised: callers sanitise them for where they draw.
func Preview(o *tools.Offloaded) (lines []string, more int) {
	if p := strings.TrimRight(o.Preview, "\n"); p != "" {
		lines = strings.Split(p, "\n")
	}
	return lines, max(o.Lines-len(lines), 0)
}
