package bash

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

func TestCommandsDoNotSeeCredentials(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-secret")
	t.Setenv("PAGER", "less")
	r := newRunner(t)
	_, out := run(t, r, "env", time.Minute)
	for _, secret := range []string{"sk-ant-secret", "token-secret", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("a command's environment shows %q", secret)
		}
	}
	for _, want := range []string{"\nPAGER=cat\n", "\nGIT_PAGER=cat\n"} {
		if !strings.Contains("\n"+out, want) {
			t.Errorf("environment lacks %q", strings.TrimSpace(want))
		}
	}
	if strings.Contains(out, "PAGER=less") {
		t.Error("PAGER=less reached the command: it would wait for a key")
	}
}

func TestBashErrorsCarryTheCommandsOwnLineNumbers(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	tests := []struct{ command, want string }{
		{"no-such-command-xyz", "line 1: no-such-command-xyz: command not found"},
		{"true\nno-such-command-xyz", "line 2: no-such-command-xyz: command not found"},
		{"echo 'unclosed", "line 1: unexpected EOF"},
	}
	for _, tc := range tests {
		_, out := run(t, r, tc.command, time.Minute)
		if !strings.Contains(out, tc.want) {
			t.Errorf("%q: output %q lacks %q", tc.command, out, tc.want)
		}
	}
}

func TestExitAtTopLevelIsReported(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	tests := []struct {
		command string
		exited  bool
		code    int
	}{
		{"exit 5", true, 5},
		{"exit", true, 0},
		{"false || exit 2", true, 2},
		{"echo hi; exit 0; echo never", true, 0},
		{"(exit 3)", false, 3},
		{"echo | exit 4", false, 4},
		{"true", false, 0},
		{"f() { exit 6; }; f", true, 6},
		{"bash -c 'exit 7'", false, 7},
	}
	for _, tc := range tests {
		o, out := run(t, r, tc.command, time.Minute)
		if o.Exited != tc.exited || o.ExitCode != tc.code {
			t.Errorf("%q: exited=%v code=%d, want exited=%v code=%d (output %q)", tc.command, o.Exited, o.ExitCode, tc.exited, tc.code, out)
		}
		if strings.Contains(out, "never") {
			t.Errorf("%q: went on after exit", tc.command)
		}
	}
}

func TestDeletedWorkingDirectory(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	r, err := NewRunner(base)
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(base, "x", "y")
	if err := os.MkdirAll(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, r, "cd x/y", time.Minute)
	if r.Dir() != gone {
		t.Fatalf("dir %q, want %q", r.Dir(), gone)
	}
	if err := os.RemoveAll(filepath.Join(base, "x")); err != nil {
		t.Fatal(err)
	}
	o, out := run(t, r, "pwd", time.Minute)
	want := fmt.Sprintf("working directory %s no longer exists; running in %s\n%s\n", gone, base, base)
	if out != want || o.ExitCode != 0 || o.Moved == "" {
		t.Fatalf("after the directory was deleted: %q (status %d), want %q", out, o.ExitCode, want)
	}
	o, out = run(t, r, "cd / && pwd", time.Minute)
	if out != "/\n" || o.ExitCode != 0 || r.Dir() != "/" {
		t.Fatalf("cd /: %q (status %d), dir %q", out, o.ExitCode, r.Dir())
	}
}

func TestDirectoryDeletedByTheCommandItself(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	r, _ := NewRunner(base)
	os.Mkdir(filepath.Join(base, "d"), 0o755)
	run(t, r, "cd d && rmdir ../d", time.Minute)
	o, out := run(t, r, "echo still here", time.Minute)
	if !strings.HasSuffix(out, "still here\n") || o.ExitCode != 0 {
		t.Fatalf("%q, status %d", out, o.ExitCode)
	}
}

func TestApplyCarriageReturns(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain\ntext\n", "plain\ntext\n"},
		{"\r1%\r2%\r100%\n", "100%\n"},
		{"abc\rX\n", "Xbc\n"},
		{"crlf\r\nline\r\n", "crlf\nline\n"},
		{"no newline\rNEW", "NEWnewline"},
		{"日本語\rab", "ab語"},
		{"a\rb\nc\rd", "b\nd"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := ApplyCarriageReturns(tc.in); got != tc.want {
			t.Errorf("ApplyCarriageReturns(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCRWriterMatchesWholeText feeds the writer in random pieces: the
// stream must come out as ApplyCarriageReturns of the whole.
func TestCRWriterMatchesWholeText(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for i := range 2000 {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&in, "\r%d%%", i)
		case 1:
			fmt.Fprintf(&in, "line %d\n", i)
		case 2:
			in.WriteString("über\r\n")
		case 3:
			fmt.Fprintf(&in, "x%dy\rZ", i)
		default:
			in.WriteString("\n")
		}
	}
	text := in.String()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		var out strings.Builder
		w := &CRWriter{W: &out}
		for rest := text; len(rest) > 0; {
			n := 1 + rng.IntN(64)
			if round == 0 {
				n = len(rest)
			}
			n = min(n, len(rest))
			w.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		w.Flush()
		if got, want := out.String(), ApplyCarriageReturns(text); got != want {
			t.Fatalf("round %d: streamed result differs from the whole-text result", round)
		}
	}
}

func TestCleanStaleState(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gone := exec.Command("true")
	gone.Run()
	deadPid := gone.ProcessState.Pid()
	names := map[string]bool{ // name → should survive
		fmt.Sprintf("%s%d-1", statePrefix, deadPid):     false,
		fmt.Sprintf("%s%d-2", statePrefix, os.Getpid()): true,
		statePrefix + "old-style":                       true, // new: kept for an hour
		"unrelated":                                     true,
	}
	for name := range names {
		os.WriteFile(filepath.Join(dir, name), []byte("cwd /\n"), 0o600)
	}
	old := filepath.Join(dir, statePrefix+"ancient")
	os.WriteFile(old, nil, 0o600)
	past := time.Now().Add(-2 * time.Hour)
	os.Chtimes(old, past, past)
	names[filepath.Base(old)] = false

	if n := CleanStaleState(dir); n != 2 {
		t.Errorf("removed %d files, want 2", n)
	}
	for name, survive := range names {
		_, err := os.Stat(filepath.Join(dir, name))
		if (err == nil) != survive {
			t.Errorf("%s: exists=%v, want %v", name, err == nil, survive)
		}
	}
}

// processesWithArgs lists the pids whose command line is exactly args.
func processesWithArgs(args ...string) []int {
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

func TestFaultKillEndsBackgroundJobs(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	marker := fmt.Sprintf("%d.%03d", 200+os.Getpid()%100, rand.IntN(1000))
	run(t, r, "sleep "+marker+" &", time.Minute)
	if len(processesWithArgs("sleep", marker)) == 0 {
		t.Fatal("the background job is not running")
	}
	r.Kill()
	testwait.For(t, 10*time.Second, "the background job to be killed", func() bool { return len(processesWithArgs("sleep", marker)) == 0 })
}

// TestFaultReaperKillsWhenItsInputEnds stands in for todo-shell dying with
// SIGKILL: the reaper's input closes and it kills what is left.
func TestFaultReaperKillsWhenItsInputEnds(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	marker := fmt.Sprintf("%d.%03d", 300+os.Getpid()%100, rand.IntN(1000))
	run(t, r, "sleep "+marker+" &", time.Minute)
	if len(processesWithArgs("sleep", marker)) == 0 {
		t.Fatal("the background job is not running")
	}
	r.reaper.w.Close()
	testwait.For(t, 10*time.Second, "the reaper to kill the job", func() bool { return len(processesWithArgs("sleep", marker)) == 0 })
}

// TestDirDoesNotWaitForARunningCommand: the prompt reads Dir while a command
// runs; it must not wait for the command to end.
func TestDirDoesNotWaitForARunningCommand(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(context.Background(), "echo started; sleep 5", time.Minute, writerFunc(func(p []byte) {
			select {
			case <-started:
			default:
				close(started)
			}
		}))
	}()
	<-started
	got := make(chan string, 1)
	go func() { got <- r.Dir() }()
	select {
	case <-got:
	case <-time.After(time.Second):
		t.Fatal("Dir waited for the running command")
	}
	r.Kill()
	<-done
}

type writerFunc func([]byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

// slowWriter stands for a consumer slower than drainGrace per write, such as
// an offload file synced on a busy disk.
type slowWriter struct {
	syncBuffer
	delay time.Duration
}

func (s *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(s.delay)
	return s.syncBuffer.Write(p)
}

// TestFaultSlowConsumerLosesNothing: once the shell exits, output still in
// the pipe is read to its end however slow the consumer is. Each write
// takes longer than drainGrace, and the output (229 KB) is more than three
// pipe buffers (64 KiB): seq exits with a full pipe still to be read, which
// takes several writes, each past the grace.
func TestFaultSlowConsumerLosesNothing(t *testing.T) {
	t.Parallel() // waits on a slow consumer, not on the CPU
	r := newRunner(t)
	out := &slowWriter{delay: 3 * drainGrace / 2}
	o, err := r.Run(context.Background(), "seq 1 40000", time.Minute, out)
	if err != nil || o.ExitCode != 0 {
		t.Fatal(o, err)
	}
	want, _ := exec.Command("seq", "1", "40000").Output()
	if got := out.String(); got != string(want) {
		t.Fatalf("got %d bytes, want %d", len(got), len(want))
	}
}

// TestSilentBackgroundJobDoesNotHoldTheCommand: a job left running that
// holds the output pipe and prints nothing ends the wait after drainGrace.
func TestSilentBackgroundJobDoesNotHoldTheCommand(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	begin := time.Now()
	o, out := run(t, r, "sleep 30 & echo started", time.Minute)
	if o.ExitCode != 0 || out != "started\n" {
		t.Fatalf("%v %q", o, out)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	r.Kill()
}
