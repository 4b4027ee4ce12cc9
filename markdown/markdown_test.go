package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func plain() Styles {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return DefaultStyles(r)
}

func TestRender(t *testing.T) {
	cases := []struct {
		name, in string
		width    int
		want     string
	}{
		{"heading and text", "# Plan\n\nSome *text* and **bold** and `code`.", 80,
			"# Plan\n\nSome text and bold and code."},
		{"tight list", "- one\n- two\n  - nested\n", 80, "• one\n• two\n  • nested"},
		{"ordered", "3. three\n4. four", 80, "3. three\n4. four"},
		{"code block", "```go\nfunc main() {}\n```", 80, "go\n  func main() {}"},
		{"quote", "> quoted text", 80, "│ quoted text"},
		{"link", "see [docs](https://x.dev)", 80, "see docs (https://x.dev)"},
		{"wraps", "alpha beta gamma delta epsilon", 12, "alpha beta\ngamma delta\nepsilon"},
		{"wrapped list item", "- alpha beta gamma delta", 14, "• alpha beta\n  gamma delta"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := New(plain(), c.width).Render(c.in)
			if got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestRenderStyles(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI256)
	out := New(DefaultStyles(r), 80).Render("**bold**")
	if !strings.Contains(out, "\x1b[1m") || ansi.Strip(out) != "bold" {
		t.Fatalf("%q", out)
	}
}

func TestSplitDone(t *testing.T) {
	cases := []struct{ in, done, rest string }{
		{"partial line", "", "partial line"},
		{"para\n\nnext", "para\n\n", "next"},
		{"```\ncode\n\nmore", "", "```\ncode\n\nmore"},
		{"```\ncode\n\n```\nafter", "```\ncode\n\n```\n", "after"},
		{"a\n\nb\n\nc", "a\n\nb\n\n", "c"},
	}
	for _, c := range cases {
		done, rest := SplitDone(c.in)
		if done != c.done || rest != c.rest {
			t.Errorf("SplitDone(%q) = %q, %q", c.in, done, c.rest)
		}
	}
}
