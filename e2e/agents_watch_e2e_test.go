package e2e

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/follow"
)

// TestWatchAgentsLive runs `todo-shell watch --claude`, `--codex` and
// `--gemini` in a pseudo-terminal over a session file that grows: the
// session files the real CLIs wrote (internal/plan/testdata), appended a
// line at a time. After each line that completes a plan version, the panel
// must show it; the time from the append to the screen is logged.
func TestWatchAgentsLive(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		fixture string
		flag    string
		place   func(t *testing.T, home, project string) string // the session file to write
		want    map[int]string                                  // fixture line -> text on screen after it
	}{
		{"claude tasks", "claude-code-2.1.330_tasks.jsonl", "--claude",
			func(t *testing.T, home, project string) string {
				d := follow.ClaudeProjectDir(filepath.Join(home, ".claude", "projects"), project)
				os.MkdirAll(d, 0o700)
				return filepath.Join(d, "d43c4a4c.jsonl")
			},
			map[int]string{42: "● #1 Writing the parser · @main", 43: "○ #2 Write tests · blocked by #1", 50: "● #3 Update the docs", 55: "● #2 Writing unit tests", 60: "Tasks 2/2"}},
		{"codex", "codex-0.169.0_rollout.jsonl", "--codex",
			func(t *testing.T, home, project string) string {
				d := filepath.Join(home, ".codex", "sessions", "2026", "11", "25")
				os.MkdirAll(d, 0o700)
				return filepath.Join(d, "rollout-2026-11-25T09-40-25-01a21213.jsonl")
			},
			map[int]string{12: "● Write the parser", 16: "● Write unit tests", 20: "Tasks 2/2"}},
		{"gemini", "gemini-cli-0.61.0_session.jsonl", "--gemini",
			func(t *testing.T, home, project string) string {
				os.MkdirAll(filepath.Join(home, ".gemini", "tmp", "proj", "chats"), 0o700)
				os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(`{"projects":{"`+project+`":"proj"}}`), 0o600)
				return filepath.Join(home, ".gemini", "tmp", "proj", "chats", "session-2026-11-25T09-42-990f64e4.jsonl")
			},
			map[int]string{7: "● Write the parser", 12: "● Write unit tests", 17: "Tasks 2/2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			project := filepath.Join(home, "src", "app")
			os.MkdirAll(project, 0o700)
			path := tc.place(t, home, project)
			data, err := os.ReadFile(filepath.Join("..", "internal", "plan", "testdata", tc.fixture))
			if err != nil {
				t.Fatal(err)
			}
			// The session is of this project (Codex names its cwd).
			text := strings.ReplaceAll(string(data), `"cwd":"/tmp/rec/p-codex"`, `"cwd":"`+project+`"`)
			var lines []string
			sc := bufio.NewScanner(strings.NewReader(text))
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				lines = append(lines, sc.Text()+"\n")
			}
			// The first line is there before watch starts.
			if err := os.WriteFile(path, []byte(lines[0]), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, "watch", tc.flag, project)
			// Its own state and data directories: the package's shared one holds
			// the shared plans other tests made, which are live plans too.
			cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm-256color", "NO_COLOR=1", "CODEX_HOME=", "CLAUDE_CONFIG_DIR=",
				"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_DATA_HOME="+filepath.Join(home, "share"))
			tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
			if err != nil {
				t.Fatal(err)
			}
			defer tty.Close()
			scr := &screen{tty: tty}
			go io.Copy(scr, tty)
			scr.waitFor(t, "waiting for a plan…", 5*time.Second)
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var lags []time.Duration
			for n := 2; n <= len(lines); n++ {
				if _, err := f.WriteString(lines[n-1]); err != nil {
					t.Fatal(err)
				}
				if want, ok := tc.want[n]; ok {
					written := time.Now()
					scr.waitFor(t, want, 5*time.Second)
					lags = append(lags, time.Since(written))
				}
			}
			sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
			// Logged, not asserted: a busy machine must not fail a test
			// (BenchmarkWatchLag carries the number).
			t.Logf("%s: append to screen %v", tc.name, lags)
			// The progress is in the terminal's title.
			scr.waitForRaw(t, "\x1b]2;2/2\x07", 5*time.Second)
			tty.Write([]byte("q"))
			waitExit(t, cmd, "q did not end watch")
			// The title before is given back.
			scr.waitForRaw(t, "\x1b[23;2t", 5*time.Second)
		})
	}
}

// TestWatchNoProgress: with TODO_SHELL_NO_PROGRESS=1 the title is left
// alone.
func TestWatchNoProgress(t *testing.T) {
	t.Parallel()
	off := t.TempDir()
	os.MkdirAll(filepath.Join(off, "s1"), 0o700)
	os.WriteFile(filepath.Join(off, "s1", "todos.jsonl"), []byte(`{"version":1,"time":"2026-11-20T09:00:01Z","tool_use_id":"t1","todos":[{"content":"Step","status":"in_progress","activeForm":"Doing the step"}]}`+"\n"), 0o600)
	for _, tc := range []struct {
		env   string
		title bool
	}{{"TODO_SHELL_NO_PROGRESS=1", false}, {"TODO_SHELL_NO_PROGRESS=", true}} {
		cmd := exec.Command(binary, "watch", "--offload-dir", off)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", tc.env)
		tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
		if err != nil {
			t.Fatal(err)
		}
		scr := &screen{tty: tty}
		go io.Copy(scr, tty)
		scr.waitFor(t, "● Doing the step", 5*time.Second)
		tty.Write([]byte("q"))
		scr.waitForRaw(t, "\x1b[?1049l", 5*time.Second) // the last thing watch writes
		cmd.Wait()
		scr.mu.Lock()
		got := strings.Contains(scr.buf.String(), "\x1b]2;0/1 ▸ Doing the step\x07")
		scr.mu.Unlock()
		if got != tc.title {
			t.Errorf("%s: title written %v", tc.env, got)
		}
		tty.Close()
	}
}

// TestWatchAllLive runs `watch --all` over two agents' sessions, grows one
// and sees its box change, picks the second with ↓ and opens it with Enter.
func TestWatchAllLive(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	td := filepath.Join("..", "internal", "plan", "testdata")
	codex, _ := os.ReadFile(filepath.Join(td, "codex-0.169.0_rollout.jsonl"))
	gem, _ := os.ReadFile(filepath.Join(td, "gemini-cli-0.61.0_session.jsonl"))
	cl := strings.SplitAfter(string(codex), "\n")
	gl := strings.SplitAfter(string(gem), "\n")
	day := filepath.Join(home, ".codex", "sessions", "2026", "11", "25")
	chats := filepath.Join(home, ".gemini", "tmp", "web", "chats")
	os.MkdirAll(day, 0o700)
	os.MkdirAll(chats, 0o700)
	os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(`{"projects":{"/src/web":"web"}}`), 0o600)
	os.WriteFile(filepath.Join(day, "rollout-a.jsonl"), []byte(strings.Join(cl[:12], "")), 0o600)
	os.WriteFile(filepath.Join(chats, "session-a.jsonl"), []byte(strings.Join(gl[:8], "")), 0o600)

	cmd := exec.Command(binary, "watch", "--all", "--offload-dir", filepath.Join(home, "none"))
	// Its own state and data directories: the package's shared one holds
	// the shared plans other tests made, which are live plans too.
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm-256color", "NO_COLOR=1", "CODEX_HOME=", "CLAUDE_CONFIG_DIR=",
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_DATA_HOME="+filepath.Join(home, "share"))
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	// The first screen within 15 s: with -race and two busy cores beside
	// it, starting the process once took longer than 5 s (2 of 3 runs of
	// the whole e2e package while five helpers compiled).
	scr.waitFor(t, "2 live plans", 15*time.Second)
	scr.waitFor(t, "Codex · /tmp/rec/p-codex · ", 5*time.Second)
	f, _ := os.OpenFile(filepath.Join(day, "rollout-a.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Join(cl[12:16], ""))
	f.Close()
	written := time.Now()
	scr.waitFor(t, "● Write unit tests", 5*time.Second)
	t.Logf("append to screen: %v", time.Since(written))
	// Codex changed last: it is first; ↓ picks Gemini CLI, Enter opens it.
	tty.Write([]byte("\x1b[B\r"))
	scr.waitFor(t, "Gemini CLI · /src/web · ", 5*time.Second)
	scr.waitFor(t, "Esc back", 5*time.Second)
	tty.Write([]byte("q"))
	waitExit(t, cmd, "q did not end watch --all")
}

// TestShellTitleProgress: the shell puts its plan's progress in the
// terminal title and gives the title back when it ends.
func TestShellTitleProgress(t *testing.T) {
	t.Parallel()
	sh := startREPL(t, 24, 100)
	sh.send(`TodoWrite '{"todos":[{"content":"Write it","activeForm":"Writing it","status":"completed"},{"content":"Test it","activeForm":"Testing it","status":"in_progress"},{"content":"Ship","activeForm":"Shipping","status":"pending"}]}'` + "\r")
	sh.waitForRaw(t, "\x1b]2;1/3 ▸ Testing it\x07", 5*time.Second)
	sh.send("\x04")
	sh.waitForRaw(t, "\x1b[23;2t", 5*time.Second)
}
