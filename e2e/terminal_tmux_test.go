package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestTmuxShiftEnterInsertsANewLine: in a terminal that reports Shift+Enter
// apart from Enter (tmux with extended-keys on, once the shell asks for
// keyboard enhancements), Shift+Enter and Alt+Enter insert a new line, as
// in Claude Code, and Enter still runs the lines. (Without the request,
// tmux sends Shift+Enter as Enter: the first line ran alone.)
func TestTmuxShiftEnterInsertsANewLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := tmuxConfig(t, "set-option -s extended-keys on\n")
	tt := startTmuxConf(t, 80, 24, dir, "NO_COLOR=1", conf)
	for _, key := range []string{"S-Enter", "M-Enter"} {
		tt.run("send-keys", "-t", "t", "-l", "echo one-"+key)
		tt.run("send-keys", "-t", "t", key)
		tt.run("send-keys", "-t", "t", "-l", "echo two-"+key)
		tt.waitScreen(key+": two lines in the input", func(s string) bool {
			return strings.Contains(s, "… echo two-"+key) && !hasLine(s, "one-"+key)
		})
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitScreen(key+": both lines run by Enter", func(s string) bool {
			return hasLine(s, "one-"+key) && hasLine(s, "two-"+key) && idle(s)
		})
	}
}

// TestTmuxCursorAtTheInsertionPoint: the terminal's own cursor is shown
// where the next character goes, in colour and without (--no-color,
// NO_COLOR), so that a person, an input method and a screen reader follow
// the right place (issue 29, item 4: with NO_COLOR it was hidden and no
// reverse-video cell was drawn; in every mode it was parked at column 0 of
// another row).
func TestTmuxCursorAtTheInsertionPoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, env string
		args      []string
	}{
		{"NO_COLOR", "NO_COLOR=1", nil},
		{"colour", "", nil},
		{"--no-color", "", []string{"--no-color"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt := startTmuxEnv(t, 80, 24, t.TempDir(), tc.env, tc.args...)
			tt.command(`TodoWrite '{"todos":[{"content":"A","activeForm":"Doing A","status":"in_progress"}]}'`, "Todo list updated: 0 completed, 1 in_progress, 0 pending")
			tt.run("send-keys", "-t", "t", "-l", "echo héllo wörld")
			tt.run("send-keys", "-t", "t", "Left", "Left", "Left")
			s := tt.waitScreen("the line typed", func(s string) bool { return strings.Contains(s, "❯ echo héllo wörld") })
			lines := strings.Split(strings.TrimRight(tt.screen(), "\n"), "\n")
			row := len(lines) - 1
			col := strings.Index(lines[row], "❯ echo héllo wörld")
			if col < 0 {
				t.Fatalf("the input is not the last row:\n%s", s)
			}
			// Cells, not bytes: the prompt's ❯ and the é, ö are one cell each.
			want := fmt.Sprintf("%d %d 1", len([]rune(lines[row][:col]))+len([]rune("❯ echo héllo wö")), row)
			tt.waitUntil("the cursor at the insertion point", func() bool {
				return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{cursor_x} #{cursor_y} #{cursor_flag}")) == want
			})
		})
	}
}

// TestTmuxHeightOnlyResizeRedraws: with a plan up and the screen full,
// changing only the window's height (80×24 to 80×16, as a split under the
// shell does, and back) redraws the live area: the panel and the prompt
// are whole at each height (issue 29, item 2: the pane ended with the
// panel's top border, and stayed so after growing back until a key was
// typed).
func TestTmuxHeightOnlyResizeRedraws(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tt := startTmuxIn(t, 80, 24, dir)
	tt.command(`TodoWrite '{"todos":[{"content":"A","activeForm":"Doing A","status":"in_progress"},{"content":"B","activeForm":"Doing B","status":"pending"}]}'`, "Todo list updated: 0 completed, 1 in_progress, 1 pending")
	tt.command("seq 1 40", "40")
	whole := func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
		n := len(lines)
		return n >= 5 && strings.Contains(lines[n-5], "╭─ Tasks 0/2") && strings.Contains(lines[n-4], "● Doing A") &&
			strings.Contains(lines[n-3], "○ B") && strings.Contains(lines[n-2], "╰") && strings.HasSuffix(strings.TrimRight(lines[n-1], " "), "❯")
	}
	for _, rows := range []int{16, 24, 12, 24} {
		tt.resize(80, rows)
		tt.waitUntil(fmt.Sprintf("the panel and the prompt whole at 80×%d", rows), func() bool { return whole(tt.screen()) })
	}
}

// TestTmuxPrintedLinesReflow: a printed line longer than the window is
// wrapped by tmux, not broken by the shell, so a wider window shows it on
// one row again.
func TestTmuxPrintedLinesReflow(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 100, 24)
	long := strings.Repeat("x", 150) + "END"
	tt.run("send-keys", "-t", "t", "-l", "echo "+long)
	tt.run("send-keys", "-t", "t", "Enter")
	tt.waitScreen("the long line", func(s string) bool { return strings.Contains(s, "xxxEND") && idle(s) })
	tt.resize(160, 24)
	tt.run("send-keys", "-t", "t", "-l", "z") // a redraw after the resize
	tt.waitScreen("the long line on one row", func(s string) bool {
		return strings.Contains(s, "❯ z") && hasLine(s, long)
	})
}
