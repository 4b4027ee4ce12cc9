package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// linesEqual counts the lines of s that are exactly want (trailing blanks
// aside).
func linesEqual(s, want string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimRight(l, " ") == want {
			n++
		}
	}
	return n
}

// TestTmuxCtrlUClearsARecalledEntry: Ctrl+U on a recalled entry of
// several lines clears it whole, and Enter then runs nothing (issue 29,
// item 5: it cleared the first row only, and Enter ran the rows left).
func TestTmuxCtrlUClearsARecalledEntry(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.paste("echo ONE-5\necho TWO-5\necho THREE-5")
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitScreen("the three lines run", func(s string) bool { return hasLine(s, "THREE-5") && idle(s) })
		tt.run("send-keys", "-t", "t", "Up")
		tt.waitUntil("the entry recalled", func() bool {
			rows := strings.Split(strings.TrimRight(tt.screen(), "\n "), "\n")
			return strings.TrimSpace(rows[len(rows)-1]) == "… echo THREE-5" // the input's last row
		})
		tt.run("send-keys", "-t", "t", "C-u")
		tt.waitUntil("the input cleared whole", func() bool {
			rows := strings.Split(strings.TrimRight(tt.screen(), "\n "), "\n")
			n := len(rows)
			return n >= 2 && strings.TrimRight(rows[n-2], " ") == "THREE-5" && idle(rows[n-1])
		})
		tt.run("send-keys", "-t", "t", "Enter")
		s := tt.command("echo after-5", "after-5")
		for _, w := range []string{"ONE-5", "TWO-5", "THREE-5"} {
			if n := linesEqual(s, w); n != 1 {
				t.Errorf("%s ran %d times:\n%s", w, n, s)
			}
		}
	})
}

// TestTmuxCtrlRShowsTheMatchPastTheWidth: Ctrl+R finds a word that lies
// past the window's width in a long command, and the search row shows it,
// with the text around it (issue 29, item 11: the row was cut at the
// width, the match with it).
func TestTmuxCtrlRShowsTheMatchPastTheWidth(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		line := "echo " + strings.Repeat("x", 120) + " NEEDLE-11 the end"
		tt.enter(line)
		tt.waitScreen("the command's output", func(s string) bool {
			return linesEqual(tt.joined(), strings.Repeat("x", 120)+" NEEDLE-11 the end") == 1 && idle(s)
		})
		tt.run("send-keys", "-t", "t", "C-r")
		tt.run("send-keys", "-t", "t", "-l", "NEEDLE")
		tt.waitUntil("the match on the search row", func() bool {
			for _, l := range strings.Split(tt.screen(), "\n") {
				if strings.HasPrefix(l, "(reverse-i-search)'NEEDLE': …x") && strings.Contains(l, "x NEEDLE-11 the end") {
					return true
				}
			}
			return false
		})
		tt.run("send-keys", "-t", "t", "Escape")
	})
}

// TestTmuxErrorKeepsItsLayout: in colour, an error with a line wider than
// the window has no blank line between its lines: the wide line wraps and
// the next line follows it (issue 29, item 17: each line was padded to the
// widest, and the padding wrapped onto blank rows).
func TestTmuxErrorKeepsItsLayout(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			tt := startTmuxEnv(t, sz[0], sz[1], t.TempDir(), "")
			bad := "bogus-" + strings.Repeat("s", 40)
			tt.enter(`TodoWrite '{"todos":[{"content":"a","status":"` + bad + `","activeForm":"b"},{"content":"c","activeForm":"d"}]}'`)
			s := tt.waitScreen("the error", func(s string) bool {
				return strings.Contains(s, "activeForm is required") || strings.Contains(s, "status is required")
			})
			lines := strings.Split(s, "\n")
			for i, l := range lines {
				if strings.TrimRight(l, " ") != "Error: Validation failed" {
					continue
				}
				if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "- Todo at index 0: invalid status '"+bad[:10]) {
					t.Fatalf("the error's second line does not follow its first:\n%s", s)
				}
				for _, next := range lines[i+1:] {
					if strings.Contains(next, "❯") { // the prompt, after the error
						return
					}
					if strings.TrimSpace(next) == "" {
						t.Fatalf("a blank row in the error:\n%s", s)
					}
				}
				t.Fatalf("no prompt after the error:\n%s", s)
			}
			t.Fatalf("no 'Error: Validation failed' line:\n%s", s)
		})
	}
}

// TestTmuxRunningRowMarksLineBreaks: a pasted command of several lines
// shows on the running row with its line breaks marked (issue 29, item 20:
// `echo a sleep 2`, as if one command).
func TestTmuxRunningRowMarksLineBreaks(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.paste("echo a-20\nsleep 2")
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitUntil("the running row", func() bool { return strings.Contains(tt.screen(), "Running echo a-20 ⏎ sleep 2 (") })
		tt.waitScreen("the end", func(s string) bool { return hasLine(s, "a-20") && idle(s) })
	})
}
