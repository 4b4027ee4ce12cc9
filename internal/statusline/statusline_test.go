package statusline

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func items(spec ...string) []todo.Item {
	var out []todo.Item
	for _, s := range spec {
		content, st, _ := strings.Cut(s, "=")
		status := map[string]string{"p": todo.StatusPending, "i": todo.StatusInProgress, "c": todo.StatusCompleted}[st]
		out = append(out, todo.Item{Content: content, Status: status, ActiveForm: "Doing " + content})
	}
	return out
}

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     Plan
		width int
		plain string
		tmux  string
	}{
		{"in progress", Plan{Items: items("Read=c", "Write=c", "Test=c", "Write tests=i", "Docs=p")}, 0,
			"Tasks 3/5 ▸ Doing Write tests",
			"#[bold]Tasks #[default]#[fg=colour243]3/5#[default]#[fg=colour243] ▸ #[default]#[fg=colour220,bold]Doing Write tests#[default]"},
		{"next", Plan{Items: items("Read=c", "Write=p")}, 0, "Tasks 1/2 ▸ next: Write", ""},
		{"all done", Plan{Items: items("Read=c", "Write=c")}, 0, "Tasks 2/2 ✓", ""},
		{"dropped", Plan{Items: items("Read=c", "Write=i"), Dropped: 2}, 0, "Tasks 1/2 ▸ Doing Write · 2 dropped", ""},
		{"none", Plan{}, 0, "", ""},
		{"cut", Plan{Items: items("Read=c", strings.Repeat("long ", 40)+"=i"), Dropped: 1}, 40, "Tasks 1/2 ▸ Doing long long… · 1 dropped", ""},
		{"narrow", Plan{Items: items("A=i")}, 8, "Tasks 0/", ""},
		// Hostile text: escapes neutralised; in tmux every # doubled.
		{"hostile", Plan{Items: []todo.Item{{Content: "x", Status: "in_progress", ActiveForm: "\x1b[2J#[fg=red]#(rm -rf ~)\x1b]0;pwn\x07"}}}, 0,
			"Tasks 0/1 ▸ ␛[2J#[fg=red]#(rm -rf ~)␛]0;pwn␇",
			"#[bold]Tasks #[default]#[fg=colour243]0/1#[default]#[fg=colour243] ▸ #[default]#[fg=colour220,bold]␛[2J##[fg=red]##(rm -rf ~)␛]0;pwn␇#[default]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Line(tc.p, Plain, tc.width); got != tc.plain {
				t.Errorf("plain: %q, want %q", got, tc.plain)
			}
			w := tc.width
			if w == 0 {
				w = DefaultWidth
			}
			a := Line(tc.p, ANSI, tc.width)
			if ansi.Strip(a) != tc.plain || ansi.StringWidth(a) > w {
				t.Errorf("ansi: %q (width %d)", a, ansi.StringWidth(a))
			}
			if strings.Count(a, "\x1b[") != 2*strings.Count(a, "\x1b[0m") {
				t.Errorf("ansi: an escape that is not SGR: %q", a)
			}
			if tc.tmux != "" {
				if got := Line(tc.p, Tmux, tc.width); got != tc.tmux {
					t.Errorf("tmux:\n%q\nwant\n%q", got, tc.tmux)
				}
			}
		})
	}
}
