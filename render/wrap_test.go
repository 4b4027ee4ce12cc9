package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestWrapHelp(t *testing.T) {
	cases := []struct {
		name, in string
		width    int
		want     string
	}{
		{"fits", "short line", 20, "short line"},
		{"words", "the quick brown fox jumps over", 10, "the quick\nbrown fox\njumps over"},
		{"two columns hang", "  /trace on|off   show each call's tool_use and tool_result JSON", 40,
			"  /trace on|off   show each call's\n                  tool_use and\n                  tool_result JSON"},
		{"narrow falls back to indent", "  /trace on|off   show each call's JSON", 30,
			"  /trace on|off   show each\n  call's JSON"},
		{"indent kept", "    a b c d e f g h", 10, "    a b c\n    d e f\n    g h"},
		{"long word cut", "abcdefghijkl", 5, "abcde\nfghij\nkl"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := WrapHelp(c.in, c.width)
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if ansi.StringWidth(l) > c.width {
					t.Fatalf("line %q wider than %d", l, c.width)
				}
			}
		})
	}
}
