package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestHelpFitsEightyColumnsAndListsUsedFlags: no line of any command's
// --help is wider than 80 columns, and each command lists only the flags it
// uses: `version --help` has no --bash-timeout or --trace (issue 16.17).
// Help does not depend on the terminal's size: it runs once per command.
func TestHelpFitsEightyColumnsAndListsUsedFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args      []string
		has, lack []string
	}{
		{nil, []string{"--bash-timeout", "--trace", "--command", "--resume"}, nil},
		{[]string{"version"}, nil, []string{"--bash-timeout", "--trace", "--offload-dir", "--session"}},
		{[]string{"tools"}, []string{"--max-items"}, []string{"--bash-timeout", "--trace", "--session"}},
		{[]string{"sessions"}, []string{"--offload-dir", "--json"}, []string{"--bash-timeout", "--trace", "--max-items"}},
		{[]string{"clean"}, []string{"--offload-dir"}, []string{"--bash-timeout", "--trace"}},
		{[]string{"watch"}, []string{"--offload-dir", "--no-color", "--plan", "--no-progress"}, []string{"--bash-timeout", "--max-items"}},
		{[]string{"replay"}, []string{"--no-color"}, []string{"--bash-timeout", "--offload-dir"}},
		{[]string{"serve"}, []string{"--bash-timeout", "--offload-dir"}, []string{"--no-history", "--no-color"}},
		{[]string{"mcp"}, []string{"--resume", "--offload-dir", "--plan"}, []string{"--no-history"}},
		{[]string{"agent"}, []string{"--resume", "--trace", "--no-history"}, nil},
		{[]string{"completion"}, nil, []string{"--bash-timeout"}},
	} {
		out, err := exec.Command(binary, append(tc.args, "--help")...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v --help: %v\n%s", tc.args, err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("%v --help: a line of %d columns: %q", tc.args, n, l)
			}
		}
		for _, f := range tc.has {
			if !strings.Contains(string(out), f+" ") {
				t.Errorf("%v --help does not list %s", tc.args, f)
			}
		}
		for _, f := range tc.lack {
			if strings.Contains(string(out), f+" ") {
				t.Errorf("%v --help lists %s, which it does not use", tc.args, f)
			}
		}
	}
}

// TestHelpFitsTheTerminal: in a terminal narrower than 80 columns every
// command's --help wraps to its width (the terminal would otherwise wrap
// it, anywhere), in a wider one to 80; a JSON example is never broken
// inside a string.
func TestHelpFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, cols := range []int{60, 100} {
		for _, args := range [][]string{nil, {"serve"}, {"sessions"}, {"watch"}, {"agent"}, {"mcp"}} {
			t.Run(fmt.Sprintf("%d/%v", cols, args), func(t *testing.T) {
				tt := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
				tt.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(cols), "-y", "50",
					fmt.Sprintf("%s %s --help; echo END-OF-HELP; exec cat", binary, strings.Join(args, " ")))
				t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
				tt.waitScreen("the help", func(s string) bool { return strings.Contains(s, "END-OF-HELP") })
				// -J joins the rows the terminal wrapped: a line the
				// program wrote too wide shows as one.
				s := tt.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t")
				for _, l := range strings.Split(s, "\n") {
					l = strings.TrimRight(l, " ")
					if n := utf8.RuneCountInString(l); n > min(cols, 80) {
						t.Errorf("a line of %d columns (of %d): %q", n, cols, l)
					}
					if strings.Contains(l, `{"`) && strings.Count(l, `"`)%2 != 0 {
						t.Errorf("a JSON example broken inside a string: %q", l)
					}
				}
			})
		}
	}
}

// TestSessionsFitsTheTerminal: `sessions` with long items in progress
// keeps its rows to 80 columns when piped and to the window's width in
// tmux, 60 columns too, where columns give way (issue 16.17).
func TestSessionsFitsTheTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	off := filepath.Join(dir, "off")
	long := strings.Repeat("a long item in progress ", 8)
	for _, id := range []string{"first-session-with-a-long-id", "second"} {
		c := exec.Command(binary, "--offload-dir", off, "--session", id, "-c", todoWriteWith(long))
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	c := exec.Command(binary, "sessions", "--offload-dir", off)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	checkWidth(t, "piped", string(out), 80)
	for _, cols := range []int{100, 80, 60} {
		// The pane waits on cat after the table, so it stays to be read.
		tt := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
		tt.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(cols), "-y", "24",
			fmt.Sprintf("cd %s && NO_COLOR=1 %s sessions --offload-dir %s; exec cat", dir, binary, off))
		t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
		// Both rows whole: the pane may be read while the table is being written.
		s := tt.waitScreen("the table", func(s string) bool { return strings.Count(s, "a long item") >= 2 })
		checkWidth(t, "tmux", s, cols)
	}
}

func checkWidth(t *testing.T, where, out string, width int) {
	t.Helper()
	if !strings.Contains(out, "IN PROGRESS") || !strings.Contains(out, "a long item") {
		t.Fatalf("%s: no table:\n%s", where, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(strings.TrimRight(l, " ")); n > width {
			t.Errorf("%s: a row of %d columns (of %d):\n%s", where, n, width, out)
		}
	}
}

// todoWriteWith is a TodoWrite line with one item in progress.
func todoWriteWith(activeForm string) string {
	return `TodoWrite '{"todos":[{"content":"x","activeForm":"` + activeForm + `","status":"in_progress"}]}'`
}
