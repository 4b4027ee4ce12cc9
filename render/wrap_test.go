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
		{"JSON example goes on indented", `  TodoWrite '{"a":"x y","b":"z"}'`, 20,
			"  TodoWrite\n    '{\"a\":\"x y\",\n    \"b\":\"z\"}'"},
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

// TestWrapHelpNeverBreaksJSONStrings: a JSON example wraps at commas and
// spaces outside its strings, at 80 and 60 columns, and every row of it
// that was one JSON line joins back into the same JSON (issue 16.16).
func TestWrapHelpNeverBreaksJSONStrings(t *testing.T) {
	line := `  {"content":"Analyze requirements","activeForm":"Analyzing requirements","status":"completed"},`
	prose := `Returns {"success":true,"count":3}; in the shell: Todo list updated: 1 completed, 1 in_progress, 1 pending`
	for _, width := range []int{79, 59, 40} {
		for _, text := range []string{line, prose} {
			rows := strings.Split(WrapHelp(text, width), "\n")
			for _, r := range rows {
				if strings.Count(r, `"`)%2 != 0 {
					t.Errorf("width %d: a row breaks a string: %q", width, r)
				}
				if ansi.StringWidth(r) > width {
					t.Errorf("width %d: row %q is wider", width, r)
				}
			}
			var joined strings.Builder
			for i, r := range rows {
				if i > 0 && !strings.HasSuffix(rows[i-1], ",") {
					joined.WriteByte(' ')
				}
				joined.WriteString(strings.TrimLeft(r, " "))
			}
			if got := joined.String(); got != strings.TrimLeft(text, " ") {
				t.Errorf("width %d: rows join to %q", width, got)
			}
		}
	}
}
