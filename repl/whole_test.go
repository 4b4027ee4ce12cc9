package repl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
)

// TestOwnListShownWhole: a list a person asked to read (TodoRead) that
// went to an offload file is printed whole, not the pointer and its
// preview — up to wholeMaxLines lines; a longer one is shown as any
// offloaded result (issue 29, item 14).
func TestOwnListShownWhole(t *testing.T) {
	cfg, _ := testConfig(t)
	m := New(cfg)
	m.width, m.height = 80, 24
	list := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "[ ] Item number %d\n", i)
		}
		return b.String() + "\n(0/" + fmt.Sprint(n) + " completed)"
	}
	for _, tt := range []struct {
		items int
		whole bool
	}{{40, true}, {wholeMaxLines - 3, true}, {wholeMaxLines, false}} {
		full := list(tt.items)
		out := router.Output{Stdout: "[Tool result offloaded to file: /tmp/x.md]", Full: full,
			Offloaded: &tools.Offloaded{Path: "/tmp/x.md", Preview: "[ ] Item number 0\n", Lines: tt.items + 2}}
		got := m.formatOutput(out)
		if whole := strings.Contains(got, fmt.Sprintf("[ ] Item number %d\n", tt.items-1)) && !strings.Contains(got, "offloaded to file"); whole != tt.whole {
			t.Errorf("%d items: shown whole %v, want %v:\n%.300s", tt.items, whole, tt.whole, got)
		}
	}
}
