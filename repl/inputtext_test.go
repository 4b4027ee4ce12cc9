package repl

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"unicode/utf8"
)

// TestInputTextRoundTrips: text given to the input comes back byte for
// byte (tabs and other control characters included), one rune for one
// rune, with no tab or control character left for the textarea to change
// (issue 16.1).
func TestInputTextRoundTrips(t *testing.T) {
	for _, s := range []string{
		"",
		"plain",
		"a\tb",
		"all:\n\tgo build ./...\n",
		"esc \x1b[31m del \x7f nul \x00",
		"looks like a stand-in: ⇥ ␉ ␛ ␡",
		"mixed\t⇥\t␉",
		"日本\t語",
	} {
		in := toInput(s)
		if back := fromInput(in); back != s {
			t.Errorf("%q → %q → %q", s, in, back)
		}
		if utf8.RuneCountInString(in) != utf8.RuneCountInString(s) {
			t.Errorf("%q: %d runes in the input, %d typed", s, utf8.RuneCountInString(in), utf8.RuneCountInString(s))
		}
		for _, r := range in {
			if (r < 0x20 && r != '\n') || r == 0x7f {
				t.Errorf("%q: the input holds control %U", s, r)
			}
		}
	}
}

// TestPastedTabKept: a paste with tabs is submitted with its tabs.
func TestPastedTabKept(t *testing.T) {
	cfg, _ := testConfig(t)
	next, _ := New(cfg).Update(tea.PasteMsg{Content: "printf '%s' 'a\tb'"})
	if got := next.(*Model).text(); got != "printf '%s' 'a\tb'" {
		t.Fatalf("input holds %q", got)
	}
}
