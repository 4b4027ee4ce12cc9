package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxLongPromptLeavesRoomToType: in a directory with a long name, on
// a long git branch, what is typed shows on the prompt's row and the
// cursor sits after it; the prompt takes at most half the row (trial
// finding: at 80×24 the row showed only the directory and the branch, the
// cursor on a blank row; at 60 columns a realistic prompt left a 7-column
// strip with blank "…" rows). The shell starts elsewhere and cds there,
// as the person did.
func TestTmuxLongPromptLeavesRoomToType(t *testing.T) {
	t.Parallel()
	cases := []struct{ dir, branch string }{
		{"a-rather-long-directory-name-for-the-prompt", "feature/very-long-branch-name-here"},
		{"my-company-backend-service", "feature/add-login-flow"},
	}
	for _, c := range cases {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", c.dir[:6], size[0], size[1]), func(t *testing.T) {
				base := t.TempDir()
				dir := filepath.Join(base, c.dir)
				if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/"+c.branch+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				tt := startTmuxIn(t, size[0], size[1], base) // its socket's path must be short
				tt.paste("cd " + c.dir)
				tt.run("send-keys", "-t", "t", "Enter")
				tt.waitUntil("the prompt in the directory", func() bool {
					return lineStarting(tt.screen(), c.dir[:12])
				})
				tt.run("send-keys", "-t", "t", "-l", "echo hello world")
				tt.waitUntil("the typed text after the prompt", func() bool {
					return strings.Contains(tt.screen(), "❯ echo hello world")
				})
				scr := tt.screen()
				lines := strings.Split(strings.TrimRight(scr, "\n"), "\n")
				row := len(lines) - 1
				col := strings.Index(lines[row], "❯ echo hello world")
				if col < 0 {
					t.Fatalf("the input is not the last row:\n%s", scr)
				}
				prompt := []rune(lines[row][:col] + "❯ ")
				if len(prompt) > (size[0]-1)/2 || !strings.Contains(string(prompt), c.dir[:6]) {
					t.Fatalf("the prompt %q takes %d of %d columns (at most half), or lost the directory", string(prompt), len(prompt), size[0])
				}
				want := fmt.Sprintf("%d %d", len(prompt)+len("echo hello world"), row)
				if got := strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{cursor_x} #{cursor_y}")); got != want {
					t.Fatalf("cursor at %q, want %q (after the typed text):\n%s", got, want, tt.screen())
				}
				tt.run("send-keys", "-t", "t", "Enter")
				tt.waitScreen("the line run", func(s string) bool { return hasLine(s, "hello world") && idle(s) })
			})
		}
	}
}

// TestTmuxTabTemplateOnAnEmptyList: `TodoWrite ` and Tab in a fresh shell
// (an empty list) shows the one-item template whole, from its first row,
// with no empty "…" rows under it (trial finding at 80×24: its first two
// rows were neither on the screen nor in the scrollback, two empty rows
// were drawn under it, and no "↑" row said anything was hidden).
func TestTmuxTabTemplateOnAnEmptyList(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.run("send-keys", "-t", "t", "-l", "TodoWrite ")
		tt.waitUntil("the command typed", func() bool { return strings.Contains(tt.screen(), "❯ TodoWrite") })
		tt.run("send-keys", "-t", "t", "Tab")
		tt.waitUntil("the template's end", func() bool { return strings.Contains(tt.screen(), "> }'") })
		scr := tt.screen()
		if !strings.Contains(scr, "❯ TodoWrite '{") || !strings.Contains(scr, `"todos": [`) {
			t.Fatalf("the template's first rows are not shown:\n%s", scr)
		}
		for _, l := range strings.Split(scr, "\n") {
			if strings.TrimSpace(l) == "…" {
				t.Fatalf("an empty row in the input:\n%s", scr)
			}
		}
	})
}

// TestTmuxLongLineCountsHiddenRows: a pasted line of 5,000 characters,
// wrapped over many rows, says how many rows are out of sight, the same
// count above it (cursor at the end) and under it (cursor at the start)
// (trial finding: "↑ 1 more line" with ~60 rows hidden).
func TestTmuxLongLineCountsHiddenRows(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.paste("echo " + strings.Repeat("word ", 1000))
		var up, down int
		tt.waitUntil("the rows hidden above", func() bool {
			_, err := fmt.Sscanf(strings.TrimSpace(strings.Split(tt.screen(), "\n")[0]), "↑ %d more rows", &up)
			return err == nil
		})
		tt.run("send-keys", "-t", "t", "C-a")
		tt.waitUntil("the rows hidden below", func() bool {
			lines := strings.Split(strings.TrimRight(tt.screen(), "\n "), "\n")
			_, err := fmt.Sscanf(strings.TrimSpace(lines[len(lines)-1]), "↓ %d more rows", &down)
			return err == nil
		})
		if up != down || up < 40 {
			t.Fatalf("↑ %d more rows at the end, ↓ %d at the start: want the same count, the ~5,000 characters' rows less the 12 shown", up, down)
		}
	})
}

// TestTmuxHelpTellsTheNewLineKeys: /help names the keys that insert a new
// line, Alt+Enter and Ctrl+J, which work in every terminal (trial finding:
// neither /help nor the docs named them, and VS Code sends a plain Enter
// for Shift+Enter); Ctrl+J then does insert one.
func TestTmuxHelpTellsTheNewLineKeys(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("/help", "and are replaced by a one-line pointer.")
		if s := tt.all(); !strings.Contains(s, "Alt+Enter, Ctrl+J    a new line,") {
			t.Fatalf("/help does not name the new-line keys:\n%s", s)
		}
		tt.run("send-keys", "-t", "t", "-l", "echo one")
		tt.run("send-keys", "-t", "t", "C-j")
		tt.run("send-keys", "-t", "t", "-l", "echo two")
		tt.waitScreen("two lines in the input", func(s string) bool {
			return strings.Contains(s, "… echo two") && !hasLine(s, "one")
		})
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitScreen("both lines run", func(s string) bool { return hasLine(s, "one") && hasLine(s, "two") && idle(s) })
	})
}

// TestTmuxCtrlCArmingExpires: "Press Ctrl+C again to exit" goes after a
// few seconds, and a Ctrl+C then asks again instead of leaving (trial
// finding: a Ctrl+C six seconds later still left the shell). It waits
// for the hint to go, as a person would, never for a fixed time.
func TestTmuxCtrlCArmingExpires(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 80, 24)
	const hint = "Press Ctrl+C again to exit"
	tt.run("send-keys", "-t", "t", "C-c")
	tt.waitUntil("the hint", func() bool { return strings.Contains(tt.screen(), hint) })
	tt.waitUntil("the hint gone", func() bool { return !strings.Contains(tt.screen(), hint) })
	tt.run("send-keys", "-t", "t", "C-c")
	tt.waitUntil("the hint again", func() bool { return strings.Contains(tt.screen(), hint) })
	if tt.paneDead() {
		t.Fatalf("the shell left on a Ctrl+C after the first had expired:\n%s", tt.screen())
	}
	tt.run("send-keys", "-t", "t", "C-c") // in time: leaves
	tt.waitUntil("the shell gone", func() bool { return tt.paneDead() })
}
