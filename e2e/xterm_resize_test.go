package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// xtermPlan is a plan whose panel is about 70 columns wide.
const xtermPlan = `TodoWrite '{"todos":[` +
	`{"content":"Read the parser and write down every rule it breaks today","activeForm":"Reading the parser and writing down every rule it breaks","status":"completed"},` +
	`{"content":"Fix the lexer","activeForm":"Fixing the lexer","status":"in_progress"},` +
	`{"content":"Run the whole suite","activeForm":"Running the whole suite","status":"pending"},` +
	`{"content":"Write the note","activeForm":"Writing the note","status":"pending"}]}'`

// TestXtermResizeLeavesOnePanel: in xterm.js (VS Code's terminal), a
// window made narrower or wider, with the panel up at rest or while a
// command runs, shows one panel, and after Ctrl+D none is left anywhere,
// scrollback included (issue 28: narrowing 100 to 60 left two panels on the
// screen, and one in the scrollback after Ctrl+D; tmux drew the same bytes
// right).
func TestXtermResizeLeavesOnePanel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ from, to uint16 }{{100, 60}, {60, 100}, {80, 40}} {
		for _, running := range []bool{false, true} {
			name := fmt.Sprintf("%d to %d", tc.from, tc.to)
			if running {
				name += " while a command runs"
			}
			t.Run(name, func(t *testing.T) {
				x := startXterm(t, tc.from, 30)
				x.waitScreen("the prompt", func(r xtermReply) bool { return countLines(r.screen(), "❯") > 0 })
				x.typeText(xtermPlan + "\r")
				x.waitScreen("the panel", func(r xtermReply) bool { return countLines(r.screen(), "Tasks 1/4") == 1 })
				if running {
					x.typeText("sleep 30\r")
					x.waitScreen("the command", func(r xtermReply) bool { return countLines(r.screen(), "Running sleep 30") == 1 })
				}
				x.resize(tc.to, 30)
				x.typeText("x") // drawn after the resize
				r := x.waitScreen("the live area at the new width", func(r xtermReply) bool {
					s := r.screen()
					return countLines(s, "❯ x") == 1 && countLines(r.Lines, "Tasks 1/4") >= 1
				})
				if n := countLines(r.Lines, "Tasks 1/4"); n != 1 {
					t.Fatalf("%d panels after the resize:\n%s", n, strings.Join(r.Lines, "\n"))
				}
				x.typeText("\x7f")
				if running {
					x.typeText("\x03")
					x.waitScreen("the command interrupted", func(r xtermReply) bool { return countLines(r.screen(), "Running sleep 30") == 0 })
				}
				x.typeText("\x04")
				x.waitExit()
				r = x.snapshot()
				if n := countLines(r.Lines, "Tasks 1/4"); n != 0 {
					t.Fatalf("%d panels left after Ctrl+D:\n%s", n, strings.Join(r.Lines, "\n"))
				}
			})
		}
	}
}

// TestXtermPanelKeepsEmojiAndItsBorder: in xterm.js, which measures code
// point by code point, rows with an emoji ZWJ sequence, a skin tone, VS16
// and Devanagari spacing marks are drawn as written and the panel's right
// border stays in one column (they were stripped to keep it there).
func TestXtermPanelKeepsEmojiAndItsBorder(t *testing.T) {
	t.Parallel()
	x := startXterm(t, 100, 30)
	x.waitScreen("the prompt", func(r xtermReply) bool { return countLines(r.screen(), "❯") > 0 })
	x.typeText(`TodoWrite '{"todos":[` +
		`{"content":"Call 👨‍👩‍👧 now","activeForm":"Calling 👨‍👩‍👧 now","status":"in_progress"},` +
		`{"content":"Like 👍🏽","activeForm":"x","status":"pending"},{"content":"Love ❤️ it","activeForm":"x","status":"pending"},` +
		`{"content":"नमस्ते दुनिया क्षि","activeForm":"x","status":"pending"},{"content":"plain","activeForm":"x","status":"pending"}]}'` + "\r")
	r := x.waitScreen("the panel", func(r xtermReply) bool { return countLines(r.screen(), "╰") == 1 })
	top := -1
	for i, l := range r.Lines {
		if strings.Contains(l, "╭─ Tasks 0/5") {
			top = i
		}
	}
	if top < 0 || top+6 >= len(r.Lines) {
		t.Fatalf("no panel:\n%s", strings.Join(r.Lines, "\n"))
	}
	border := r.Last[top]
	for i, want := range []string{"Calling 👨‍👩‍👧 now", "Like 👍🏽", "Love ❤️ it", "नमस्ते दुनिया क्षि", "plain"} {
		row := top + 1 + i
		if !strings.Contains(r.Lines[row], want) {
			t.Errorf("row %q does not hold %q as written", r.Lines[row], want)
		}
		if r.Last[row] != border {
			t.Errorf("row %q ends at column %d, the border is at %d:\n%s", r.Lines[row], r.Last[row], border, strings.Join(r.Lines[top:top+7], "\n"))
		}
	}
}

// TestXtermPrintedLinesReflow: a printed line longer than the window is
// wrapped by the terminal, not broken by the shell, so a wider window
// shows it on one row again (and copying it gives one line).
func TestXtermPrintedLinesReflow(t *testing.T) {
	t.Parallel()
	x := startXterm(t, 100, 30)
	x.waitScreen("the prompt", func(r xtermReply) bool { return countLines(r.screen(), "❯") > 0 })
	long := strings.Repeat("x", 150) + "END"
	x.typeText("echo " + strings.Repeat("x", 150) + "END\r")
	x.waitScreen("the long line, wrapped by the terminal at 100 columns", func(r xtermReply) bool {
		for _, l := range r.Lines {
			if l == strings.Repeat("x", 50)+"END" { // the output's second row (the echo's is 61 x)
				return true
			}
		}
		return false
	})
	x.resize(160, 30)
	x.typeText("z") // drawn after the resize
	r := x.waitScreen("the long line on one row", func(r xtermReply) bool {
		return countLines(r.screen(), "❯ z") == 1 && countLines(r.Lines, long) >= 1
	})
	if n := countLines(r.Lines, long); n != 1 {
		t.Fatalf("the long line shows %d times on one row:\n%s", n, strings.Join(r.Lines, "\n"))
	}
}
