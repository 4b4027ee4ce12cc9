// Package bash runs shell commands for todo-shell: real processes in their
// own process group, a working directory that persists from one command to
// the next, merged output streamed as it comes, timeouts and interrupts that
// reach every process the command started.
package bash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// InterruptGrace is how long an interrupted command has between SIGINT and
// SIGKILL.
const InterruptGrace = 2 * time.Second

// drainGrace is how long output is still read after the shell exits, for
// background processes that keep the pipe open.
const drainGrace = 200 * time.Millisecond

// Runner runs commands one at a time in a working directory that persists
// across commands: `cd /tmp` in one command moves the next. It is safe for
// concurrent use; commands are serialised.
type Runner struct {
	mu    sync.Mutex
	shell string
	dir   string

	pgid atomic.Int64 // the running command's process group, 0 when idle
}

// NewRunner returns a runner starting in dir, running bash, or sh when bash
// is not installed.
func NewRunner(dir string) (*Runner, error) {
	shell, err := exec.LookPath("bash")
	if err != nil {
		if shell, err = exec.LookPath("sh"); err != nil {
			return nil, fmt.Errorf("bash: neither bash nor sh is on PATH")
		}
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("bash: working directory: %w", err)
		}
	}
	return &Runner{shell: shell, dir: dir}, nil
}

// Dir returns the working directory the next command starts in.
func (r *Runner) Dir() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dir
}

// Outcome is how a command ended.
type Outcome struct {
	ExitCode    int  // the shell's status; 128+N when killed by signal N
	TimedOut    bool // the timeout killed it
	Interrupted bool // the context was cancelled
	Timeout     time.Duration
}

// Trailer returns the line the shell shows after the output of a command
// that did not succeed, or "".
func (o Outcome) Trailer() string {
	switch {
	case o.TimedOut:
		return "Command timed out after " + HumanDuration(o.Timeout)
	case o.Interrupted:
		return "Command interrupted"
	case o.ExitCode != 0:
		return fmt.Sprintf("exit status %d", o.ExitCode)
	}
	return ""
}

// Failed reports whether the command did not succeed.
func (o Outcome) Failed() bool { return o.ExitCode != 0 || o.TimedOut || o.Interrupted }

// HumanDuration formats d the short way: 2m, 90s, 1.5s.
func HumanDuration(d time.Duration) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d >= time.Second && d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// Run runs command with stdin from /dev/null, stdout and stderr merged in
// order into out. Cancelling ctx interrupts the command's process group
// (SIGINT, then SIGKILL after InterruptGrace); the timeout kills it. Only a
// failure to start the shell is an error.
func (r *Runner) Run(ctx context.Context, command string, timeout time.Duration, out io.Writer) (Outcome, error) {
	r.mu.Lock()
	defer r.mu.Unlock()

	cwdFile, err := os.CreateTemp("", "todo-shell-cwd-*")
	if err != nil {
		return Outcome{}, fmt.Errorf("bash: %w", err)
	}
	cwdFile.Close()
	defer os.Remove(cwdFile.Name())

	pr, pw, err := os.Pipe()
	if err != nil {
		return Outcome{}, fmt.Errorf("bash: %w", err)
	}
	defer pr.Close()
	growPipe(pr)

	// The EXIT trap records where the command left the shell.
	script := "trap 'pwd > \"$TODO_SHELL_CWD_FILE\"' EXIT\n" + command
	cmd := exec.Command(r.shell, "-c", script)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "TODO_SHELL_CWD_FILE="+cwdFile.Name())
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return Outcome{}, fmt.Errorf("bash: start %s: %w", r.shell, err)
	}
	pw.Close()
	pgid := cmd.Process.Pid
	r.pgid.Store(int64(pgid))
	defer r.pgid.Store(0)

	copied := make(chan struct{})
	go func() {
		defer close(copied)
		buf := make([]byte, 256<<10)
		io.CopyBuffer(onlyWriter{out}, pr, buf)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()

	outcome := Outcome{Timeout: timeout}
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var werr error
	select {
	case werr = <-waited:
	case <-timer:
		outcome.TimedOut = true
		syscall.Kill(-pgid, syscall.SIGKILL)
		werr = <-waited
	case <-ctx.Done():
		outcome.Interrupted = true
		syscall.Kill(-pgid, syscall.SIGINT)
		select {
		case werr = <-waited:
		case <-time.After(InterruptGrace):
			syscall.Kill(-pgid, syscall.SIGKILL)
			werr = <-waited
		}
	}
	if outcome.TimedOut || outcome.Interrupted {
		// Leave nothing of the command behind.
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	select {
	case <-copied:
	case <-time.After(drainGrace):
		pr.Close() // a background process holds the pipe: stop reading
		<-copied
	}

	outcome.ExitCode = exitCode(cmd, werr)
	if b, err := os.ReadFile(cwdFile.Name()); err == nil {
		if dir := trimNewline(string(b)); dir != "" {
			if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
				r.dir = dir
			}
		}
	}
	return outcome, nil
}

// Kill ends the running command, if any, and every process it started, at
// once. Front ends call it on their way out.
func (r *Runner) Kill() {
	if pgid := r.pgid.Load(); pgid > 0 {
		syscall.Kill(-int(pgid), syscall.SIGKILL)
	}
}

func exitCode(cmd *exec.Cmd, err error) int {
	if cmd.ProcessState == nil {
		return -1
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return -1
	}
	return cmd.ProcessState.ExitCode()
}

func trimNewline(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// onlyWriter hides any ReaderFrom of the destination so CopyBuffer uses our
// large buffer.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }
