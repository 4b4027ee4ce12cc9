package e2e

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"

	"github.com/creack/pty"
)

// pidsRunning lists the pids whose command line is exactly args.
func pidsRunning(args ...string) []int {
	want := strings.Join(args, "\x00") + "\x00"
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(b) == want {
			pids = append(pids, pid)
		}
	}
	return pids
}

// sleepMarker is a sleep duration no other test uses, to find the process.
func sleepMarker(base int) string {
	return fmt.Sprintf("%d.%04d", base, rand.IntN(10000))
}

func exitCodeOf(t *testing.T, cmd *exec.Cmd, done <-chan error) int {
	t.Helper()
	select {
	case <-done:
		return cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("todo-shell did not exit")
	}
	return -1
}

func TestFaultServeSignalInterruptsRunningCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			cmd := exec.Command(binary, "serve", "--offload-dir", t.TempDir())
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait closes stdout once the process has exited: read all
			// of it first, or the answer can be lost to that close (the
			// empty answers seen under load).
			var answer []byte
			done := make(chan error, 1)
			go func() {
				answer, _ = io.ReadAll(stdout)
				done <- cmd.Wait()
			}()
			defer stdin.Close()
			marker := sleepMarker(400)
			fmt.Fprintf(stdin, `{"type":"tool_use","id":"toolu_run","name":"Bash","input":{"command":"sleep %s"}}`+"\n", marker)
			testwait.For(t, 10*time.Second, "the command to start", func() bool { return len(pidsRunning("sleep", marker)) > 0 })
			cmd.Process.Signal(tc.sig)
			if code := exitCodeOf(t, cmd, done); code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
			want := `{"type":"tool_result","tool_use_id":"toolu_run","content":"Command interrupted\n","is_error":true}` + "\n"
			if string(answer) != want {
				t.Errorf("answer %q, want %q", answer, want)
			}
			testwait.For(t, 5*time.Second, "the command to be killed", func() bool { return len(pidsRunning("sleep", marker)) == 0 })
		})
	}
}

// TestFaultServeSignalWithPartialLine: a client that sent a line and part of
// the next, and stopped: serve answers the whole line at once, and a signal
// ends it at once (it used to hold the answer and stay busy, waiting for the
// rest of the line).
func TestFaultServeSignalWithPartialLine(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "serve", "--offload-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	fmt.Fprint(stdin, `{"type":"tool_use","id":"toolu_1","name":"TodoRead","input":{}}`+"\n"+`{"type":"tool_use","id":"toolu_2",`)
	// The answer to the whole line comes at once, though part of the next
	// line is already buffered (it used to wait for the rest of it).
	r := bufio.NewReader(stdout)
	first := make(chan string, 1)
	go func() {
		line, _ := r.ReadString('\n')
		first <- line
	}()
	select {
	case line := <-first:
		if !strings.Contains(line, `"tool_use_id":"toolu_1"`) {
			t.Fatalf("first answer %q", line)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no answer to the whole line while part of the next one waits")
	}
	done := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, r)
		done <- cmd.Wait()
	}()
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd, done); code != 143 {
		t.Errorf("exit status %d, want 143", code)
	}
}

func TestFaultServeSignalWhileIdle(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "serve", "--offload-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer stdin.Close()
	fmt.Fprintln(stdin, `{"type":"tool_use","id":"toolu_1","name":"TodoRead","input":{}}`)
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	if err != nil || !strings.Contains(line, `"tool_use_id":"toolu_1"`) {
		t.Fatalf("first answer %q: %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd, done); code != 143 {
		t.Errorf("exit status %d, want 143", code)
	}
}

func TestServeMaxLine(t *testing.T) {
	t.Parallel()
	long := `{"type":"tool_use","id":"toolu_long","name":"TodoRead","input":{"pad":"` + strings.Repeat("x", 5000) + `"}}`
	in := long + "\n" + `{"type":"tool_use","id":"toolu_next","name":"TodoRead","input":{}}` + "\n" + long
	cmd := exec.Command(binary, "serve", "--max-line", "1000", "--offload-dir", t.TempDir())
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d answers, want 3:\n%s", len(lines), out)
	}
	for _, i := range []int{0, 2} {
		if !strings.Contains(lines[i], `"is_error":true`) || !strings.Contains(lines[i], "--max-line (1000 bytes)") {
			t.Errorf("answer %d: %s", i, lines[i])
		}
	}
	if !strings.Contains(lines[1], `"tool_use_id":"toolu_next"`) || strings.Contains(lines[1], "is_error") {
		t.Errorf("the line after a long one: %s", lines[1])
	}
}

// TestFaultKilledShellLeavesNoProcess kills todo-shell with SIGKILL, which no
// handler sees, while a command and a background job of an earlier command
// run: the reaper ends them.
func TestFaultKilledShellLeavesNoProcess(t *testing.T) {
	t.Parallel()
	bg, fg := sleepMarker(500), sleepMarker(501)
	script := fmt.Sprintf("sleep %s &\nsleep %s\n", bg, fg)
	cmd := exec.Command(binary, "--offload-dir", t.TempDir())
	cmd.Stdin = strings.NewReader(script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 10*time.Second, "both commands to start", func() bool {
		return len(pidsRunning("sleep", bg)) > 0 && len(pidsRunning("sleep", fg)) > 0
	})
	cmd.Process.Kill()
	cmd.Wait()
	testwait.For(t, 5*time.Second, "the commands to be killed", func() bool {
		return len(pidsRunning("sleep", bg)) == 0 && len(pidsRunning("sleep", fg)) == 0
	})
}

// TestFaultHangupLeavesNoProcess closes the terminal of an interactive
// shell running a command: the shell ends and so does the command, whether
// SIGHUP reaches it or is ignored (as under nohup, when only the terminal's
// hang-up tells).
func TestFaultHangupLeavesNoProcess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"SIGHUP", []string{binary}},
		{"SIGHUP ignored", []string{"sh", "-c", `trap "" HUP; exec "$0" "$@"`, binary}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{}, tc.argv[1:]...), "--offload-dir", t.TempDir())
			cmd := exec.Command(tc.argv[0], args...)
			cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
			tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
			if err != nil {
				t.Fatal(err)
			}
			scr := &screen{tty: tty}
			go io.Copy(scr, tty)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			scr.waitFor(t, "❯", 5*time.Second)
			marker := sleepMarker(502)
			tty.Write([]byte("sleep " + marker + "\r"))
			testwait.For(t, 10*time.Second, "the command to start", func() bool { return len(pidsRunning("sleep", marker)) > 0 })
			tty.Close() // the terminal goes away
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the shell did not end when its terminal closed")
			}
			testwait.For(t, 5*time.Second, "the command to be killed", func() bool { return len(pidsRunning("sleep", marker)) == 0 })
		})
	}
}

func TestExitNLeavesScriptAndCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string
	}{
		{"script exit 7", nil, "echo a\nexit 7\necho b\n", 7, "a\n"},
		{"script exit 0", nil, "echo a\nexit 0\necho b\n", 0, "a\n"},
		{"script plain exit takes the last status", nil, "echo a\nfalse\nexit\necho b\n", 1, "a\n"},
		{"script subshell exit goes on", nil, "(exit 3)\necho b\n", 1, "b\n"},
		{"-c exit 4", []string{"-c", "exit 4"}, "", 4, ""},
		{"-c exit inside a condition", []string{"-c", "echo x; false || exit 9"}, "", 9, "x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, append([]string{"--offload-dir", t.TempDir()}, tc.args...)...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			out, _ := cmd.Output()
			if code := cmd.ProcessState.ExitCode(); code != tc.code || string(out) != tc.stdout {
				t.Errorf("status %d, stdout %q; want %d, %q", code, out, tc.code, tc.stdout)
			}
		})
	}
}
