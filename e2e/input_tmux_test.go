package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestTmuxMultiLineInputAfterAWiderWindow: a multi-line input typed in a
// narrow window, taller than the rows the input shows (12) and so scrolled
// to its last line, shows no empty "…" rows under its text once the window
// is wider (trial finding): the textarea kept the scroll offset of the
// narrow window while the text took fewer rows. Each line wraps at the
// narrow width and fits the wide one.
func TestTmuxMultiLineInputAfterAWiderWindow(t *testing.T) {
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			narrow := size[0] - 20
			tt := startTmux(t, narrow, size[1])
			const n = 9
			line := func(i int) string { return fmt.Sprintf("echo %d %s end", i, strings.Repeat("word ", narrow/5)) }
			for i := range n {
				if i > 0 {
					tt.run("send-keys", "-t", "t", "M-Enter")
				}
				tt.run("send-keys", "-t", "t", "-l", line(i))
			}
			tt.waitScreen("the last line typed", func(s string) bool {
				return strings.Contains(s, fmt.Sprintf("echo %d word", n-1)) && strings.HasSuffix(strings.TrimRight(s, "\n "), "end")
			})
			tt.resize(size[0], size[1])
			tt.waitScreen("the input redrawn wider", func(string) bool {
				for _, l := range strings.Split(tt.screen(), "\n") {
					if strings.HasSuffix(strings.TrimRight(l, " "), "… "+line(n-1)) {
						return true // the last line whole on one row
					}
				}
				return false
			})
			scr := tt.screen()
			for _, l := range strings.Split(scr, "\n") {
				if strings.TrimSpace(l) == "…" {
					t.Fatalf("an empty row in the input:\n%s", scr)
				}
			}
			if n := count(scr, "echo "); n != 9 {
				t.Errorf("%d lines of the input shown, want all 9:\n%s", n, scr)
			}
		})
	}
}
