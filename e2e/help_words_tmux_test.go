package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/router"
)

// cutWord finds a line that ends inside a word at a hyphen ("'todo-").
var cutWord = regexp.MustCompile(`[A-Za-z0-9]-$`)

// words are the blank-separated words of s.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

// TestTmuxHelpNeverBreaksAWord: at 100, 80 and 60 columns no command's
// --help, nor the shell's /help, breaks a line inside a word a person
// copies — todo-shell, --plan, $XDG_STATE_HOME/todo-shell/plans/NAME —:
// every word of the help in a terminal is a word of the help printed to
// a pipe, and no line ends in the middle of one at a hyphen (issue 29,
// item 16). Before, `'todo-` ended a line and `shell clean'` began the next.
func TestTmuxHelpNeverBreaksAWord(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"watch"}, {"mcp"}, {"agent"}, {"clean"}, {"sessions"}, {"serve"}} {
		piped, err := exec.Command(binary, append(args, "--help")...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v --help: %v\n%s", args, err, piped)
		}
		whole := words(string(piped))
		for _, cols := range []int{100, 80, 60} {
			t.Run(fmt.Sprintf("%d/%v", cols, args), func(t *testing.T) {
				t.Parallel()
				tt := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
				tt.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", fmt.Sprint(cols), "-y", "50",
					fmt.Sprintf("%s %s --help; echo END-OF-HELP; exec cat", binary, strings.Join(args, " ")))
				t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
				s := tt.waitScreen("the help", func(s string) bool { return strings.Contains(s, "END-OF-HELP") })
				checkWords(t, s, whole)
			})
		}
	}
	t.Run("/help", func(t *testing.T) {
		t.Parallel()
		tt := startTmux(t, 60, 50)
		tt.paste("/help")
		tt.run("send-keys", "-t", "t", "Enter")
		last := strings.Fields(strings.TrimSpace(router.HelpText))
		s := tt.waitScreen("the help", func(s string) bool {
			return strings.Contains(s, last[len(last)-1]) && idle(s)
		})
		checkWords(t, s, words(router.HelpText))
	})
}

// checkWords fails t for a line of s cut inside a word, or a word of s
// that is not one of whole.
func checkWords(t *testing.T, s string, whole map[string]bool) {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " ")
		if strings.Contains(l, "❯") {
			continue // the prompt
		}
		if cutWord.MatchString(l) {
			t.Errorf("a line cut at a hyphen: %q", l)
		}
		for _, w := range strings.Fields(l) {
			if strings.ContainsAny(w, `"{}`) {
				// A JSON example is broken between its elements, never
				// inside a string (render.WrapHelp): still valid JSON,
				// and the shell takes it across lines.
				continue
			}
			if !whole[w] && w != "END-OF-HELP" {
				t.Errorf("%q is not a word of the help: a word was cut (%q)", w, l)
			}
		}
	}
}

// TestTmuxHelpTellsTheAgentsTools: `todo-shell --help` and `agent --help`
// in an 80-column terminal name every tool the agent runs (issue 29, item
// 13). Before, they said TodoWrite, TodoRead and Bash, of ten.
func TestTmuxHelpTellsTheAgentsTools(t *testing.T) {
	t.Parallel()
	const all = "10 tools: TodoWrite, TodoRead, TaskCreate, TaskGet, TaskUpdate, TaskList, Bash, Read, Write, Edit"
	for _, args := range [][]string{nil, {"agent"}} {
		tt := &tmuxTerm{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
		tt.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "80", "-y", "50",
			fmt.Sprintf("%s %s --help; echo END-OF-HELP; exec cat", binary, strings.Join(args, " ")))
		t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
		s := tt.waitScreen("the help", func(s string) bool { return strings.Contains(s, "END-OF-HELP") })
		if flat := strings.Join(strings.Fields(s), " "); !strings.Contains(flat, all) {
			t.Errorf("%v --help does not name the agent's tools:\n%s", args, s)
		}
	}
}
