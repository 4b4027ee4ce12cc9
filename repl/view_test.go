package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestLiveAreaKeepsToTheTerminal: with 50 todos, a running command with
// its output lines and a hint, the live area is never taller than the
// terminal minus two rows; the panel's title and the item in progress stay
// while there is room for them, and output lines give way first.
func TestLiveAreaKeepsToTheTerminal(t *testing.T) {
	cfg, _ := testConfig(t)
	var items []todo.Item
	for i := 0; i < 50; i++ {
		st := todo.StatusPending
		switch {
		case i < 30:
			st = todo.StatusCompleted
		case i == 30:
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d", i), ActiveForm: fmt.Sprintf("Doing task %d", i), Status: st})
	}
	cfg.Plan.Publish(todo.Snapshot{Items: items, Version: 1}) // as the engine publishes a new list
	for _, h := range []int{0, 3, 5, 6, 7, 8, 10, 12, 20, 32, 60} {
		t.Run(fmt.Sprint(h), func(t *testing.T) {
			m := New(cfg)
			next, _ := m.update(tea.WindowSizeMsg{Width: 100, Height: h})
			m = next.(*Model)
			m.running = &run{line: "make", lines: []string{"o1", "o2", "o3", "o4", "o5"}}
			m.hint = "a hint"
			lines := strings.Split(m.View().Content, "\n")
			fixed := 3 // the running line, the hint, the prompt
			if h > 0 && len(lines) > max(h-2, fixed) {
				t.Fatalf("%d rows in a %d-row terminal:\n%s", len(lines), h, strings.Join(lines, "\n"))
			}
			view := strings.Join(lines, "\n")
			room := h - 2 - fixed
			if (h == 0 || room >= 1) && !strings.Contains(view, "Tasks 30/50") {
				t.Errorf("no title:\n%s", view)
			}
			if (h == 0 || room >= 3) && !strings.Contains(view, "● Doing task 30") {
				t.Errorf("no item in progress:\n%s", view)
			}
			if h == 0 && !strings.Contains(view, "Task 49") {
				t.Errorf("unknown height: the whole list is shown:\n%s", view)
			}
			if h >= 60 && !strings.Contains(view, "o1") {
				t.Errorf("room for every output line, yet some went:\n%s", view)
			}
		})
	}
}

// TestPrintedStylesPadNoLine: in colour, the lines of an error, a warning
// and an offload pointer are printed as they are, none padded with spaces
// to the widest (issue 29, item 17: in a window narrower than the widest
// line, the padding wrapped onto blank rows between the error's lines).
func TestPrintedStylesPadNoLine(t *testing.T) {
	cfg, _ := testConfig(t)
	cfg.Styles = render.DefaultStyles(true)
	m := New(cfg)
	stderr := "Error: Validation failed\n- Todo at index 0: invalid status 'bogus'. Must be one of: pending, in_progress, completed\nshort"
	for name, text := range map[string]string{
		"command": m.formatOutput(router.Output{Stderr: stderr, Warning: "a warning"}),
		"builtin": m.formatText("out", stderr),
	} {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(text, "\x1b[") {
				t.Fatalf("not in colour: %q", text)
			}
			for _, l := range strings.Split(ansi.Strip(text), "\n") {
				if strings.HasSuffix(l, " ") {
					t.Errorf("line padded: %q", l)
				}
			}
			if got := ansi.Strip(text); !strings.Contains(got, stderr) {
				t.Errorf("the error's lines changed:\n%s", got)
			}
		})
	}
}

// TestRunningLabelMarksLineBreaks: a command of several lines shows on the
// running row and the queued rows with its line breaks marked, a line
// continued with a backslash joined as the shell reads it (issue 29, item
// 20: `echo a sleep 2`, as if one command).
func TestRunningLabelMarksLineBreaks(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"echo a", "echo a"},
		{"echo a\nsleep 2", "echo a ⏎ sleep 2"},
		{"for i in 1 2; do\n  echo $i\ndone", "for i in 1 2; do ⏎ echo $i ⏎ done"},
		{"make build \\\n  && ./run", "make build   && ./run"},
		{"cat <<EOF\nhi\nEOF\n", "cat <<EOF ⏎ hi ⏎ EOF"},
	} {
		if got := oneLine(tc.in); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	cfg, _ := testConfig(t)
	m := New(cfg)
	m.running = &run{id: 1, line: "echo a\nsleep 2\x1b[2J", cancel: func() {}}
	m.queue = []string{"echo b\necho c"}
	view := m.View().Content
	for _, want := range []string{"Running echo a ⏎ sleep 2␛[2J (", "❯ echo b ⏎ echo c"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in the live area:\n%s", want, view)
		}
	}
}
