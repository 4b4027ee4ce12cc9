package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStyleLinesPadsNone: StyleLines styles each line and pads none, where
// Style.Render pads a block of lines to its widest; an empty line stays
// empty.
func TestStyleLinesPadsNone(t *testing.T) {
	st := DefaultStyles(true).Error
	for _, text := range []string{"one line", "short\na much longer line\n\nx", ""} {
		got := StyleLines(st, text)
		if ansi.Strip(got) != text {
			t.Errorf("StyleLines(%q) shows %q", text, ansi.Strip(got))
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.Strip(l) != "" && !strings.Contains(l, "\x1b[") {
				t.Errorf("StyleLines(%q): line %q not styled", text, l)
			}
		}
	}
	if block := st.Render("short\na much longer line"); ansi.Strip(block) == "short\na much longer line" {
		t.Log("Style.Render no longer pads a block: StyleLines may be left for Render")
	}
}
