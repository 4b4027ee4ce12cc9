package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func plain() Styles {
	return PlainStyles()
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
	out := New(DefaultStyles(true), 80).Render("**bold**")
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

func TestHighlight(t *testing.T) {
	st := DefaultStyles(true)
	out := New(st, 80).Render("```go\nfunc main() { x := \"hi\" // note\n\treturn 42 }\n```")
	if got := ansi.Strip(out); got != "go\n  func main() { x := \"hi\" // note\n      return 42 }" {
		t.Fatalf("text changed: %q", got)
	}
	for _, want := range []string{st.Keyword.Render("func"), st.String.Render(`"hi"`), st.Comment.Render("// note"), st.Number.Render("42")} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in %q", want, out)
		}
	}
	sh := New(st, 80).Render("```sh\necho '#not' # comment\n```")
	if !strings.Contains(sh, st.Comment.Render("# comment")) || strings.Contains(sh, st.Comment.Render("#not' # comment")) {
		t.Fatalf("%q", sh)
	}
}
