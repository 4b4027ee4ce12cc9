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
	t.Parallel()
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
			tt.waitUntil("the input redrawn wider", func() bool {
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

// TestTmuxInputSaysHowManyLinesAreHidden: an input of 20 lines shows 12
// of them and says how many it hides: "↑ 8 more lines" above them with
// the cursor on the last line, "↓ 8 more lines" under them once the
// cursor is back on the first (trial finding: it hid its top silently).
func TestTmuxInputSaysHowManyLinesAreHidden(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			tt := startTmux(t, size[0], size[1])
			const n = 20
			for i := range n {
				if i > 0 {
					tt.run("send-keys", "-t", "t", "M-Enter")
				}
				tt.run("send-keys", "-t", "t", "-l", fmt.Sprintf("echo line %d", i))
			}
			tt.waitUntil("the last line and the rows hidden above", func() bool {
				s := tt.screen()
				return strings.Contains(s, fmt.Sprintf("echo line %d", n-1)) && strings.Contains(s, "↑ 8 more lines")
			})
			scr := tt.screen()
			for _, l := range strings.Split(scr, "\n") {
				if l = strings.TrimRight(l, " "); strings.HasSuffix(l, "echo line 7") || strings.Contains(l, "↓") {
					t.Fatalf("line 7 shown, or lines hidden below:\n%s", scr)
				}
			}
			for range n - 1 {
				tt.run("send-keys", "-t", "t", "Up")
			}
			tt.waitUntil("the first line and the rows hidden below", func() bool {
				s := tt.screen()
				return strings.Contains(s, "echo line 0") && strings.Contains(s, "↓ 8 more lines") && !strings.Contains(s, "↑")
			})
		})
	}
}

// TestTmuxBulkTypedUTF8KeepsEveryCharacter: a long line of multi-byte
// characters typed at once (tmux send-keys -l: no bracketed paste, read
// in pieces) reaches bash whole (trial finding: 100×日本語 gave 299
// characters instead of 301, 150×🚀 lost two: a character split between
// two reads was dropped).
func TestTmuxBulkTypedUTF8KeepsEveryCharacter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int // wc -m: the characters and the newline
	}{
		{strings.Repeat("日本語", 100), 301},
		{strings.Repeat("🚀", 150), 151},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.want), func(t *testing.T) {
			tt := startTmux(t, 60, 20)
			tt.run("send-keys", "-t", "t", "-l", "echo '"+tc.text+"' | wc -m")
			tt.run("send-keys", "-t", "t", "Enter")
			tt.waitScreen(fmt.Sprintf("wc -m saying %d", tc.want), func(s string) bool {
				return hasLine(s, fmt.Sprint(tc.want)) && idle(s)
			})
		})
	}
}

// TestTmuxMultiLinePasteRunsEachCommand: a pasted bash line and an agent
// command run each as itself, in order (trial findings: "TodoRead: command
// not found"; "Error: Unknown argument 'echo'").
func TestTmuxMultiLinePasteRunsEachCommand(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 60, 20)
	tt.paste("echo hello > notes.txt; ls\nTodoRead")
	tt.run("send-keys", "-t", "t", "Enter")
	s := tt.waitScreen("ls and TodoRead", func(s string) bool { return hasLine(s, "notes.txt") && idle(s) })
	if strings.Contains(s, "command not found") {
		t.Fatalf("TodoRead ran in bash:\n%s", s)
	}
	tt.paste("TodoRead\necho after")
	tt.run("send-keys", "-t", "t", "Enter")
	s = tt.waitScreen("echo after", func(s string) bool { return hasLine(s, "after") && idle(s) })
	if strings.Contains(s, "Unknown argument") {
		t.Fatalf("echo went to TodoRead:\n%s", s)
	}
}
