package render

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
)

// TestSanitizeOutputTabStops: a tab moves to the next multiple of eight
// columns, as a terminal's tab stops do, so columns line up (issue 16.6).
func TestSanitizeOutputTabStops(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\tX", "a       X"},
		{"abcdef\tX", "abcdef  X"},
		{"abcdefgh\tX", "abcdefgh        X"},
		{"\tX", "        X"},
		{"a\tb\tc", "a       b       c"},
		{"é\tX", "é       X"},
		{"日本\tX", "日本    X"},
		{"a\tX\nabcdef\tX", "a       X\nabcdef  X"},
		{"ab\rcd\tX", "ab\ncd      X"},
	} {
		if got := SanitizeOutput(tc.in); got != tc.want {
			t.Errorf("SanitizeOutput(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPreviewAround: a long result's preview is its head, the count left
// out and its tail; a short one's is all of it (issue 16.15).
func TestPreviewAround(t *testing.T) {
	lines := func(from, to int) []string {
		var l []string
		for i := from; i <= to; i++ {
			l = append(l, fmt.Sprint(i))
		}
		return l
	}
	pre := strings.Join(lines(1, 10), "\n") + "\n"
	for _, tc := range []struct {
		name string
		o    tools.Offloaded
		last []string
		want []string
	}{
		{"long", tools.Offloaded{Preview: pre, Lines: 5000}, lines(4996, 5000), append(append(lines(1, 5), "… 4990 more lines"), lines(4996, 5000)...)},
		{"no tail read", tools.Offloaded{Preview: pre, Lines: 5000}, nil, append(lines(1, 10), "… 4990 more lines")},
		{"all in the preview", tools.Offloaded{Preview: pre, Lines: 10}, lines(6, 10), lines(1, 10)},
		{"eleven", tools.Offloaded{Preview: pre, Lines: 11}, lines(7, 11), append(append(lines(1, 5), "… 1 more line"), lines(7, 11)...)},
		{"long lines cut the preview", tools.Offloaded{Preview: "1\n2\n", Lines: 4}, lines(1, 4), lines(1, 4)},
	} {
		head, more, tail := PreviewAround(&tc.o, tc.last)
		if got := PreviewText(head, more, tail); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSanitizeOutputColors: colours and styles pass, every other escape
// sequence goes, tabs still reach their stops, and a reset ends coloured
// text (issue 16.5).
func TestSanitizeOutputColors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mRED\x1b[0m x", "\x1b[31mRED\x1b[0m x\x1b[0m"},
		{"\x1b[01;34mdir\x1b[0m\tX", "\x1b[01;34mdir\x1b[0m     X\x1b[0m"},
		{"\x1b[38:5:196mx", "\x1b[38:5:196mx\x1b[0m"},
		{"a\x1b]0;title\x07b", "ab"},
		{"a\x1b]52;c;aGk=\x1b\\b", "ab"},
		{"a\x1b[2J\x1b[Hb\x1b[?25lc", "abc"},
		{"a\x1b[>4;1mb", "ab"},
		{"a\x1b(Bb", "ab"},
		{"cut\x1b[3", "cut"},
		{"bell\a", "bell␇"},
		{"x\r\ny", "x\ny"},
	} {
		if got := SanitizeOutputColors(tc.in); got != tc.want {
			t.Errorf("SanitizeOutputColors(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
