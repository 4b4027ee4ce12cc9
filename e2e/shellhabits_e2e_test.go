package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tests of this file protect the habits bash has taught people (issue
// 16): each runs in tmux at the sizes a person uses.

// sizes are the terminal sizes the tests run at, columns × rows.
var sizes = [][2]int{{100, 30}, {80, 24}, {60, 20}}

// eachSize runs f in a fresh tmux of each size, as subtests.
func eachSize(t *testing.T, f func(t *testing.T, tt *tmuxTerm)) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			f(t, startTmux(t, sz[0], sz[1]))
		})
	}
}

// TestPastedTabReachesCommand: a tab in a bracketed paste reaches the
// command byte for byte, not as spaces (issue 16.1).
func TestPastedTabReachesCommand(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("printf '%s' 'a\tb' | od -c", "0000003")
		if s := tt.all(); !hasLine(s, `0000000   a  \t   b`) {
			t.Errorf("the pasted tab did not reach od as one byte:\n%s", s)
		}
	})
}

// TestOutputTabsExpandToTabStops: a tab in a command's output moves to the
// next multiple of eight columns, so columns line up (issue 16.6).
func TestOutputTabsExpandToTabStops(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command(`printf 'a\tX\nabcdef\tX\n'`, "abcdef  X")
		if s := tt.all(); !hasLine(s, "a       X") {
			t.Errorf("the first tab did not reach column 8:\n%s", s)
		}
	})
}

// TestClearCommandClearsScreen: typing `clear` clears the window as /clear
// and Ctrl+L do (issue 16.10).
func TestClearCommandClearsScreen(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("echo before-clear", "before-clear")
		tt.paste("clear")
		tt.run("send-keys", "-t", "t", "Enter")
		tt.waitUntil("the prompt alone at the top of the window", func() bool {
			rows := strings.Split(strings.TrimRight(tt.screen(), "\n "), "\n")
			return len(rows) == 1 && strings.HasSuffix(strings.TrimRight(rows[0], " "), "❯")
		})
		tt.command("echo after-clear", "after-clear")
		if scr := tt.screen(); strings.Contains(scr, "before-clear") {
			t.Errorf("the window still shows what was before clear:\n%s", scr)
		}
	})
}

// TestCdDashStaysInThisShell: `cd -` before any cd says OLDPWD is not set
// (the terminal's OLDPWD is not this shell's), and after two goes back to
// the first (issue 16.9).
func TestCdDashStaysInThisShell(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command(`cd - >/dev/null 2>&1; echo "status=$?"`, "status=1")
		tt.command("mkdir -p d1 d2 && cd d1 && echo in-d1", "in-d1")
		tt.command("cd ../d2 && echo in-d2", "in-d2")
		tt.command(`cd - >/dev/null && echo "now=${PWD##*/}"`, "now=d1")
	})
}

// TestUpFromFirstRowGoesToOlderEntry: Up recalls a multi-line entry on its
// first row, so the next Up reaches the entry before it at once, and Down
// comes back through them (issue 16.11).
func TestUpFromFirstRowGoesToOlderEntry(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("echo entry-A", "entry-A")
		tt.command("echo entry-B1\necho entry-B2\necho entry-B3\necho entry-B4\necho entry-B5", "entry-B5")
		prompt := func(want string) func(string) bool {
			return func(string) bool {
				rows := strings.Split(strings.TrimRight(tt.screen(), "\n "), "\n")
				for i, r := range rows {
					if strings.HasSuffix(strings.TrimRight(r, " "), "❯ "+want) && i >= len(rows)-5 {
						return true // in the live area, not the scrollback
					}
				}
				return false
			}
		}
		tt.run("send-keys", "-t", "t", "Up")
		tt.waitScreen("entry B recalled", prompt("echo entry-B1"))
		tt.run("send-keys", "-t", "t", "Up")
		tt.waitScreen("entry A after a second Up", prompt("echo entry-A"))
		tt.run("send-keys", "-t", "t", "Down")
		tt.waitScreen("entry B again after Down", prompt("echo entry-B1"))
	})
}

// enter pastes text and presses Enter.
func (tt *tmuxTerm) enter(text string) {
	tt.t.Helper()
	tt.paste(text)
	tt.run("send-keys", "-t", "t", "Enter")
}

// waitRow waits for a row of the window that ends with suffix (trailing
// blanks aside).
func (tt *tmuxTerm) waitRow(suffix string) {
	tt.t.Helper()
	tt.waitUntil(fmt.Sprintf("a row ending %q", suffix), func() bool {
		for _, l := range strings.Split(tt.screen(), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), suffix) {
				return true
			}
		}
		return false
	})
}

// TestHeredocWaitsForTerminator: `cat > f <<'EOF'` waits for the lines of
// the here-document up to EOF, and the continuation rows say so (issue
// 16.7, 16.8).
func TestHeredocWaitsForTerminator(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("mkdir -p my-project && cd my-project && echo moved", "moved")
		tt.enter("cat > f <<'EOF'")
		tt.waitRow("heredoc EOF>")
		tt.enter("first line")
		tt.enter("  second\tline")
		tt.enter("EOF")
		tt.waitScreen("the prompt back", idle)
		tt.command("cat -A f", "  second^Iline$")
		if s := tt.all(); !hasLine(s, "first line$") || strings.Contains(s, "delimited by end-of-file") {
			t.Errorf("the here-document did not reach the file:\n%s", s)
		}
	})
}

// TestContinuationPromptSaysWhy: an open quote, an open double quote and a
// trailing backslash each show on the next row what the shell waits for
// (issue 16.8).
func TestContinuationPromptSaysWhy(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("mkdir -p my-project && cd my-project && echo moved", "moved")
		tt.enter("echo 'one")
		tt.waitRow("quote>")
		tt.command("two'", "two")
		tt.enter(`echo "three`)
		tt.waitRow("dquote>")
		tt.command(`four"`, "four")
		tt.enter(`echo five \`)
		tt.waitRow(`\>`)
		tt.command("six", "five six")
	})
}

// startTmuxWith runs todo-shell with args (and env, "NAME=value" words) in
// a cols×rows tmux window and waits for prompt; dir is its working
// directory ("" for a new one). It runs with NO_COLOR=1 unless env says
// otherwise ("NO_COLOR=").
func startTmuxWith(t *testing.T, cols, rows int, dir, prompt string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	sock := t.TempDir()
	if dir == "" {
		dir = t.TempDir()
	}
	tt := &tmuxTerm{t: t, socket: filepath.Join(sock, "tmux.sock")}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	// A state directory of its own (history, plans), unless env names
	// one: tests run in parallel.
	cmd := fmt.Sprintf("cd %s && XDG_STATE_HOME=%s NO_COLOR=1 TERM=tmux-256color %s exec %s %s", dir, t.TempDir(), strings.Join(env, " "), binary, strings.Join(quoted, " "))
	tt.newSession(tmuxConfig(t), cols, rows, cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
	tt.waitScreen("the first prompt", func(s string) bool { return strings.Contains(s, prompt) })
	return tt
}

// TestAgentHelpSaysLinesGoToClaude: /help in agent mode says a plain line
// is a prompt to Claude and bash needs a leading ! (issue 16.18).
func TestAgentHelpSaysLinesGoToClaude(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=http://127.0.0.1:1"}
			tt := startTmuxWith(t, sz[0], sz[1], "", "✦", env, "agent", "--offload-dir", filepath.Join(t.TempDir(), "off"))
			tt.enter("/help")
			s := tt.waitScreen("the help", func(s string) bool { return strings.Contains(s, "Ctrl+L") })
			if strings.Contains(s, "runs with bash (start") || !strings.Contains(s, "a prompt to Claude") {
				t.Errorf("agent-mode help:\n%s", s)
			}
		})
	}
}

// joined is the scrollback and window with wrapped rows joined.
func (tt *tmuxTerm) joined() string { return tt.run("capture-pane", "-p", "-J", "-S", "-", "-t", "t") }

// TestLeavingNamesSessionAndResumingSaysWhatCameBack: Ctrl+D prints the
// session's id and the command that comes back to it; that command starts
// by saying what it brought back (issue 16.14).
func TestLeavingNamesSessionAndResumingSaysWhatCameBack(t *testing.T) {
	t.Parallel()
	left := regexp.MustCompile(`session (\S+) saved · cd \S+ && todo-shell --resume (\S+)`)
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			dir, off := t.TempDir(), filepath.Join(t.TempDir(), "off")
			tt := startTmuxWith(t, sz[0], sz[1], dir, "❯", nil, "--offload-dir", off)
			tt.command(todoWrite(1, 1), "Todo list updated: 1 completed, 1 in_progress, 1 pending")
			tt.run("send-keys", "-t", "t", "C-d")
			var m []string
			tt.waitUntil("the note on leaving", func() bool {
				m = left.FindStringSubmatch(tt.joined())
				return m != nil
			})
			if m[1] != m[2] {
				t.Fatalf("left session %s, resume %s", m[1], m[2])
			}
			back := startTmuxWith(t, sz[0], sz[1], dir, "❯", nil, "--resume", m[1], "--offload-dir", off)
			want := "resumed " + m[1] + ": 3 todos, 1 in progress"
			back.waitUntil(want, func() bool { return strings.Contains(back.joined(), want) })
		})
	}
}

// TestOffloadPreviewShowsTheEnd: an offloaded result's preview shows its
// first and last lines with the count between, so a failure at the end of
// a long build is on screen (issue 16.15).
func TestOffloadPreviewShowsTheEnd(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("seq 1 3000; echo BUILD FAILED: see above; false", "exit status 1")
		s := tt.all()
		for _, want := range []string{"  1", "  5", "  … 2991 more lines", "  2997", "  3000", "  BUILD FAILED: see above"} {
			if !hasLine(s, want) {
				t.Errorf("no line %q:\n%s", want, s)
			}
		}
		if hasLine(s, "  6") {
			t.Errorf("the head is longer than five lines:\n%s", s)
		}
	})
}

// TestNewcomerHints: `todoread` suggests TodoRead, JSON typed without
// quotes suggests single quotes, and a list in Claude Code 1.x's shape
// says which shape todo-shell takes (issue 16.20).
func TestNewcomerHints(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("todoread", "did you mean TodoRead?")
		tt.enter(`TodoWrite {"todos":[]}`)
		tt.waitUntil("the quoting hint", func() bool {
			return strings.Contains(tt.joined(), "Hint: wrap the JSON in single quotes")
		})
		tt.enter(`TodoWrite '{"todos":[{"id":"1","content":"Ship","status":"pending","priority":"high"}]}'`)
		tt.waitUntil("the shape hint", func() bool {
			s := tt.joined()
			return strings.Contains(s, "Claude Code 1.x") && strings.Contains(s, "add activeForm")
		})
	})
}

// TestTabOnEmptyListTypesIntoFirstContent: `TodoWrite ` and Tab with no
// list puts the cursor inside the template's first "content": "", so what
// is typed next is the first todo (issue 16.20).
func TestTabOnEmptyListTypesIntoFirstContent(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.run("send-keys", "-t", "t", "-l", "TodoWrite ")
		tt.waitRow("TodoWrite")
		tt.run("send-keys", "-t", "t", "Tab")
		tt.waitUntil("the template", func() bool { return strings.Contains(tt.screen(), `"content": ""`) })
		tt.run("send-keys", "-t", "t", "-l", "Hello")
		tt.waitUntil("Hello typed into content", func() bool { return strings.Contains(tt.screen(), `"content": "Hello"`) })
	})
}

// TestToolHelpKeepsJSONExamplesWhole: `TodoWrite -h` never breaks a row of
// its JSON example inside a string, so a copied example parses (issue
// 16.16).
func TestToolHelpKeepsJSONExamplesWhole(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.command("TodoWrite -h", "]}'")
		for _, r := range strings.Split(tt.all(), "\n") {
			if strings.Contains(r, `":`) && strings.Count(r, `"`)%2 != 0 {
				t.Errorf("a row breaks a JSON string: %q", r)
			}
		}
	})
}

// TestDroppedNoteUnderInterruptedOutput: Ctrl+C on a command with a line
// typed ahead says "Dropped 1 queued command" under the interrupted
// command's output, not above it (issue 16.19).
func TestDroppedNoteUnderInterruptedOutput(t *testing.T) {
	t.Parallel()
	eachSize(t, func(t *testing.T, tt *tmuxTerm) {
		tt.enter("echo first-output; sleep 30")
		// Its output seen live: a Ctrl+C before echo ran (a busy machine)
		// would leave no output to be under.
		tt.waitScreen("the command running, its output shown", func(s string) bool {
			if !strings.Contains(s, "Running echo first-output") {
				return false
			}
			for _, l := range strings.Split(s, "\n") {
				if strings.TrimSpace(l) == "first-output" {
					return true
				}
			}
			return false
		})
		tt.enter("echo typed-ahead")
		tt.waitScreen("the line queued", func(s string) bool { return count(s, "echo typed-ahead") == 1 })
		tt.run("send-keys", "-t", "t", "C-c")
		s := tt.waitScreen("the note", func(s string) bool { return hasLine(s, "Dropped 1 queued command") && idle(s) })
		at := func(line string) int {
			for i, l := range strings.Split(s, "\n") {
				if strings.TrimRight(l, " ") == line {
					return i
				}
			}
			return -1
		}
		if out, note := at("first-output"), at("Dropped 1 queued command"); out < 0 || note < out {
			t.Errorf("the note (row %d) is not under the output (row %d):\n%s", note, out, s)
		}
	})
}

// TestCommandColoursReachTheScreen: in the interactive shell a command's
// colours reach the screen — printf's SGR, and the colours of ls, grep and
// git that colour only for a terminal — while a title, a clear screen and a
// cursor move stay neutralised; the offload file and a serve result stay
// plain (issue 16.5).
func TestCommandColoursReachTheScreen(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
				t.Fatal(err)
			}
			off := filepath.Join(t.TempDir(), "off")
			tt := startTmuxWith(t, sz[0], sz[1], dir, "❯", []string{"NO_COLOR="}, "--offload-dir", off)
			tt.command(`printf '\e[31mRED\e[0m plain\n'`, "RED plain")
			tt.command("ls --color=auto", "subdir")
			tt.command("echo hello | grep --color=auto ell", "hello")
			tt.command(`printf 'a\e]0;TITLE\ab\e[2J\e[5;5Hc\n'`, "abc")
			tt.command(`mkdir g && cd g && git init -q && echo old > f && git add f && echo new > f && git diff; cd ..`, "+new")
			tt.command(`printf '\e[32m%s\e[0m\n' $(seq 1 300) | tail -n 300`, "  … 290 more lines")
			colored := tt.run("capture-pane", "-e", "-p", "-J", "-S", "-", "-t", "t")
			for _, want := range []string{"\x1b[31mRED", "34msubdir", "31mell", "32m+new"} {
				if !strings.Contains(colored, want) {
					t.Errorf("no %q on the screen:\n%q", want, colored)
				}
			}
			for _, l := range strings.Split(colored, "\n") {
				if !strings.Contains(l, "printf") && (strings.Contains(l, "TITLE") || strings.Contains(l, "␛")) {
					t.Errorf("a title or an escape reached the screen: %q", l)
				}
			}
			files, _ := filepath.Glob(filepath.Join(off, "*", "toolu_*.md"))
			if len(files) != 1 {
				t.Fatalf("%d offload files", len(files))
			}
			if b, err := os.ReadFile(files[0]); err != nil || strings.Contains(string(b), "\x1b") || !strings.Contains(string(b), "\n300\n") {
				t.Errorf("the offload file is not plain text: %v\n%q", err, b)
			}
		})
	}
	c := exec.Command(binary, "serve", "--offload-dir", filepath.Join(t.TempDir(), "off"))
	c.Stdin = strings.NewReader(`{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"printf '\\e[31mRED\\e[0m'; ls --color=always /"}}` + "\n")
	out, err := c.Output()
	if err != nil || strings.Contains(string(out), `\u001b`) || !strings.Contains(string(out), `"content":"RED`) {
		t.Errorf("serve's tool_result is not plain: %v\n%s", err, out)
	}
}
