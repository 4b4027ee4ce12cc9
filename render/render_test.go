package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/todo-shell/todo-shell/tools/todo"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from golden:\n%s\nwant:\n%s", name, got, want)
	}
}

var mixed = todo.Snapshot{Items: []todo.Item{
	{Content: "Analyze requirements", Status: todo.StatusCompleted, ActiveForm: "Analyzing requirements"},
	{Content: "编写实现代码", Status: todo.StatusInProgress, ActiveForm: "正在编写实现代码并补充单元测试"},
	{Content: "Ship it 🚀 and celebrate 🎉 with the whole team", Status: todo.StatusPending, ActiveForm: "Shipping"},
	{Content: "x", Status: todo.StatusPending, ActiveForm: "y"},
}}

func TestTaskBoxGolden(t *testing.T) {
	st := PlainStyles()
	for _, w := range []int{20, 40, 80} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			box := TaskBox(mixed, w, &st)
			golden(t, fmt.Sprintf("taskbox_%d", w), box)
			for i, line := range strings.Split(box, "\n") {
				if got := ansi.StringWidth(line); got != w {
					t.Errorf("line %d is %d cells wide, want %d: %q", i, got, w, line)
				}
			}
		})
	}
}

func TestTaskBoxNarrowAndEmpty(t *testing.T) {
	st := PlainStyles()
	if got := TaskBox(todo.Snapshot{}, 80, &st); got != "" {
		t.Fatalf("empty list drew %q", got)
	}
	for _, w := range []int{0, 5, 12, 13} {
		box := TaskBox(mixed, w, &st)
		want := max(w, minBoxWidth)
		for _, line := range strings.Split(box, "\n") {
			if ansi.StringWidth(line) != want {
				t.Fatalf("width %d: line %q is %d wide", w, line, ansi.StringWidth(line))
			}
		}
	}
}

func TestPlainGolden(t *testing.T) {
	golden(t, "plain", Plain(mixed))
	if got := Plain(todo.Snapshot{}); got != "No todos." {
		t.Fatalf("empty: %q", got)
	}
	one := todo.Snapshot{Items: []todo.Item{{Content: "a", Status: todo.StatusInProgress, ActiveForm: "b"}}}
	if got := Plain(one); got != "[>] a <- b\n\n(0/1 completed)" {
		t.Fatalf("one: %q", got)
	}
}

func TestUntrustedTextCannotEscape(t *testing.T) {
	evil := todo.Snapshot{Items: []todo.Item{
		{Content: "clear\x1b[2Jscreen", Status: todo.StatusPending, ActiveForm: "a"},
		{Content: "line\nbreak\rand\ttab", Status: todo.StatusCompleted, ActiveForm: "a"},
		{Content: "c1\u009b31m bidi\u202eevil bell\a del\x7f bad\xff", Status: todo.StatusInProgress, ActiveForm: "act\x1b]0;title\x07ive"},
	}}
	st := PlainStyles()
	for name, out := range map[string]string{"taskbox": TaskBox(evil, 60, &st), "plain": Plain(evil)} {
		for _, r := range out {
			if r == '\x1b' || r == '\r' || r == '\a' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e {
				t.Fatalf("%s: control %U reached the output:\n%q", name, r, out)
			}
		}
	}
	if got := Sanitize("a\x1b[2Jb\nc"); got != "a␛[2Jb c" {
		t.Fatalf("Sanitize: %q", got)
	}
	if got := SanitizeOutput("\x1b[31mred\x1b[0m\r\nnext\rover\tx\x1b]0;t\x07"); got != "red\nnext\nover    x" {
		t.Fatalf("SanitizeOutput: %q", got)
	}
	if got := Sanitize("plain ascii"); got != "plain ascii" {
		t.Fatal(got)
	}
}

func TestNoColorMeansNoEscapes(t *testing.T) {
	st := PlainStyles()
	if out := TaskBox(mixed, 80, &st); strings.Contains(out, "\x1b") {
		t.Fatalf("plain styles drew escape codes: %q", out)
	}
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	colored := DefaultStyles(r)
	out := TaskBox(mixed, 80, &colored)
	if !strings.Contains(out, "\x1b[") {
		t.Fatal("color styles drew no color")
	}
	if ansi.Strip(out) != TaskBox(mixed, 80, &st) {
		t.Fatal("colors changed the text")
	}
}

func BenchmarkTaskBox50(b *testing.B) {
	var items []todo.Item
	for i := 0; i < 50; i++ {
		status := []string{todo.StatusCompleted, todo.StatusPending}[i%2]
		if i == 25 {
			status = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d: implement the thing that needs doing, with 界 text", i), Status: status, ActiveForm: "Implementing"})
	}
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	st := DefaultStyles(r)
	snap := todo.Snapshot{Items: items}
	b.ReportAllocs()
	for b.Loop() {
		TaskBox(snap, 80, &st)
	}
}
