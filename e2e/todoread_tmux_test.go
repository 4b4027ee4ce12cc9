package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxTodoReadShowsALongListWhole: TodoRead of 40 todos at the
// interactive shell (80×24) prints every item, not an offload pointer; the
// result a model would get is still offloaded to a file (issue 29, item
// 14). Before, about 25 items or more went to a file.
func TestTmuxTodoReadShowsALongListWhole(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tt := startTmuxIn(t, 80, 24, dir, "--max-in-progress", "0")
	// Each item a real line: the list is about 2400 characters.
	long := strings.ReplaceAll(fortyTodos(8, 40), `"content":"Item `, `"content":"Check the parser, part `)
	tt.command(long, "Todo list updated: 9 completed, 2 in_progress, 29 pending")
	s := tt.command("TodoRead", "(9/40 completed)")
	for n := 1; n <= 40; n++ {
		mark := "[ ]"
		switch {
		case n == 8 || n == 40:
			mark = "[>]"
		case n <= 10:
			mark = "[x]"
		}
		want := fmt.Sprintf("%s Check the parser, part %d", mark, n)
		if mark == "[>]" {
			want += fmt.Sprintf(" <- Working on item %d", n)
		}
		if !hasLine(s, want) {
			t.Errorf("no line %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "[Tool result offloaded to file:") {
		t.Errorf("the list went to a file:\n%s", s)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, ".offload", "*", "toolu_*.md")); len(files) != 1 {
		t.Errorf("the result is not offloaded as a model's would be: %v", files)
	}
}
