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
	"path/filepath"
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
	mu     sync.Mutex
	shell  string
	dir    string
	oldDir string // OLDPWD for the next command, "" before any cd

	pgid atomic.Int64 // the running command's process group, 0 when idle
	// shown is dir for readers that must not wait for a running command
	// (the prompt is drawn while one runs).
	shown atomic.Pointer[string]

	reaperMu sync.Mutex
	reaper   *reaper // started with the first command
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
	r := &Runner{shell: shell}
	r.setDir(dir)
	return r, nil
}

// Dir returns the working directory the next command starts in. It never
// waits for a running command.
func (r *Runner) Dir() string { return *r.shown.Load() }

// setDir moves the runner; r.mu is held, or r is not shared yet.
func (r *Runner) setDir(dir string) {
	r.dir = dir
	r.shown.Store(&dir)
}

// Outcome is how a command ended.
type Outcome struct {
	ExitCode    int  // the shell's status; 128+N when killed by signal N
	TimedOut    bool // the timeout killed it
	Interrupted bool // the context was cancelled
	Timeout     time.Duration
	// Exited is set when the command itself ran the exit builtin at its
	// top level (`exit 5`, `make || exit`): a shell front end then ends
	// with ExitCode, as bash does. (Detected with bash only.)
	Exited bool
	// Moved says the working directory had been deleted and the command
	// ran from the nearest existing parent instead.
	Moved string
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

	moved := r.leaveGoneDir(out)

	stateFile, removeState := newStateFile(out)
	defer removeState()

	pr, pw, src, cols, err := openOutput(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer func() { _ = pr.Close() }() // only read

	script, sendScript, err := scriptReader(command)
	if err != nil {
		_ = pw.Close() // the child's end; nothing written here
		return Outcome{}, err
	}
	cmd := r.shellCommand(stateFile, pw, script)
	rp := r.startReaper()
	err = cmd.Start()
	_ = pw.Close()     // the child's end; nothing written here
	_ = script.Close() // the child's end: its shell alone reads it
	if err != nil {
		sendScript() // to no one: it only closes the pipe's other end
		return Outcome{}, fmt.Errorf("bash: start %s: %w", r.shell, err)
	}
	pgid := cmd.Process.Pid
	r.pgid.Store(int64(pgid))
	defer r.pgid.Store(0)
	defer r.watched(rp, pgid, sendScript)()
	if cols > 0 {
		defer followWidth(ctx, pr, pgid, cols)()
	}

	progress := &progressWriter{w: out}
	copied := copyOutput(progress, src)
	waited := waitCmd(cmd)

	outcome := Outcome{Timeout: timeout, Moved: moved}
	werr := waitGroup(ctx, pgid, timeout, waited, &outcome)
	select {
	case <-copied:
	default:
		drain(copied, progress, pr)
	}
	outcome.ExitCode = exitCode(cmd, werr)
	r.takeState(stateFile, &outcome)
	return outcome, nil
}

// leaveGoneDir moves the runner to the nearest directory that still
// exists when its own is gone, and says so on out; it returns what it
// said ("" when the directory is there).
func (r *Runner) leaveGoneDir(out io.Writer) string {
	dir, ok := nearestDir(r.dir)
	if ok && dir == r.dir {
		return ""
	}
	moved := errGone(r.dir, dir)
	fmt.Fprintln(out, moved)
	r.setDir(dir)
	return moved
}

// shellCommand is the shell that runs a command: in the runner's
// directory, writing to pw, reading the command from script and recording
// where it ends in stateFile.
func (r *Runner) shellCommand(stateFile string, pw, script *os.File) *exec.Cmd {
	cmd := exec.Command(r.shell, "-c", bootstrap(filepath.Base(r.shell) == "bash"))
	cmd.Dir = r.dir
	cmd.Env = withOldDir(childEnv(os.Environ(), stateEnv+"="+stateFile), r.oldDir)
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.ExtraFiles = []*os.File{script} // scriptFD
	cmd.SysProcAttr = childSysProcAttr()
	return cmd
}

// followWidth passes a new width of the terminal in ctx on to the
// command's terminal pr as a terminal's would reach it: its terminal has
// it, the process group pgid gets SIGWINCH (the kernel sends none: the
// terminal is no one's controlling terminal). It returns the end of it.
func followWidth(ctx context.Context, pr *os.File, pgid, cols int) (detach func()) {
	return terminalFrom(ctx).attach(cols, func(cols int) {
		if setTerminalCols(pr, cols) == nil {
			_ = syscall.Kill(-pgid, syscall.SIGWINCH) // ESRCH: already gone
		}
	})
}

// copyOutput copies the command's output from src to w in a goroutine;
// the channel it returns closes when the copy ends (at EOF, EIO from a
// terminal, or a close).
func copyOutput(w io.Writer, src io.Reader) <-chan struct{} {
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		buf := make([]byte, 256<<10)
		_, _ = io.CopyBuffer(w, src, buf)
	}()
	return copied
}

// watched tells the reaper of a started command's process group, and only
// then gives the command's shell its script (send): todo-shell killed right
// after the start (SIGKILL, which no handler sees) leaves nothing running
// that the reaper did not know of. The function it returns forgets the
// group once it is empty.
func (r *Runner) watched(rp *reaper, pgid int, send func()) (forget func()) {
	rp.watch(pgid)
	send()
	return func() { rp.forgetIfGone(pgid) }
}

// waitCmd waits for cmd in a goroutine; the channel it returns gets the
// Wait error.
func waitCmd(cmd *exec.Cmd) <-chan error {
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	return waited
}

// scriptReader returns the reading end of a pipe for command, and send,
// which writes command into it once called (a goroutine writes it and
// closes the pipe; should the shell die without reading it all, the write
// fails and ends). Until send, the shell has nothing to run.
func scriptReader(command string) (r *os.File, send func(), err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("bash: %w", err)
	}
	send = func() {
		go func() {
			_, _ = pw.WriteString(command) // EPIPE: the shell is gone, nothing to do
			_ = pw.Close()                 // only written
		}()
	}
	return pr, send, nil
}

// newStateFile makes the empty file the command records where it ends in,
// and returns its path and its removal. Without one (a full or read-only
// temporary directory must not stop commands) it says so on out and
// returns os.DevNull.
func newStateFile(out io.Writer) (path string, remove func()) {
	state, err := os.CreateTemp("", stateFilePrefix())
	if err != nil {
		fmt.Fprintf(out, "todo-shell: cannot record where this command ends (%v): a cd in it will not carry over\n", err)
		return os.DevNull, func() {}
	}
	_ = state.Close() // empty: the command writes it
	path = state.Name()
	return path, func() { _ = os.Remove(path) } // best effort: a temp file
}

// openOutput opens what the command writes to, pw, and its reading end pr:
// a terminal of its own when ctx asks for one (src then reads it
// coalesced, and cols is its width), a pipe otherwise (src is pr, cols 0).
func openOutput(ctx context.Context) (pr, pw *os.File, src io.Reader, cols int, err error) {
	if size := terminalFrom(ctx); size != nil {
		cols = size.Cols()
		if pr, pw, err = openTerminal(cols); err == nil {
			return pr, pw, coalesced(pr), cols, nil
		}
		// none: a pipe
	}
	if pr, pw, err = os.Pipe(); err != nil {
		return nil, nil, nil, 0, fmt.Errorf("bash: %w", err)
	}
	growPipe(pr)
	return pr, pw, pr, 0, nil
}

// waitGroup waits for the command whose process group is pgid to end
// (waited), killing the group at the timeout (0: none) or interrupting it
// when ctx ends (SIGINT, then SIGKILL after InterruptGrace); outcome says
// which. A group killed or interrupted is then killed whole, so nothing of
// the command is left behind. It returns the command's Wait error.
func waitGroup(ctx context.Context, pgid int, timeout time.Duration, waited <-chan error, outcome *Outcome) error {
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var werr error
	select {
	case err := <-waited:
		return err
	case <-timer:
		outcome.TimedOut = true
		_ = syscall.Kill(-pgid, syscall.SIGKILL) // ESRCH: already gone
		werr = <-waited
	case <-ctx.Done():
		outcome.Interrupted = true
		_ = syscall.Kill(-pgid, syscall.SIGINT) // ESRCH: already gone
		select {
		case werr = <-waited:
		case <-time.After(InterruptGrace):
			_ = syscall.Kill(-pgid, syscall.SIGKILL) // ESRCH: already gone
			werr = <-waited
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // ESRCH: already gone
	return werr
}

// takeState reads where the command ended from stateFile: the runner moves
// to its directory (when it still is one) and keeps its OLDPWD; outcome
// learns whether it ran exit (not when it was killed).
func (r *Runner) takeState(stateFile string, outcome *Outcome) {
	b, err := os.ReadFile(stateFile)
	if err != nil {
		return
	}
	st := parseState(string(b))
	outcome.Exited = st.exited && !outcome.TimedOut && !outcome.Interrupted
	if st.dir != "" {
		if fi, err := os.Stat(st.dir); err == nil && fi.IsDir() {
			r.setDir(st.dir)
		}
	}
	if st.oldDir != "" {
		r.oldDir = st.oldDir
	}
}

// Kill ends the running command, if any, and every process any command
// started that is still running (background jobs too), at once. Front ends
// call it on their way out and on SIGHUP or SIGTERM.
func (r *Runner) Kill() {
	if pgid := r.pgid.Load(); pgid > 0 {
		_ = syscall.Kill(-int(pgid), syscall.SIGKILL) // ESRCH: already gone
	}
	r.reaperMu.Lock()
	rp := r.reaper
	r.reaperMu.Unlock()
	rp.killAll()
}

// startReaper starts the reaper with the first command.
func (r *Runner) startReaper() *reaper {
	r.reaperMu.Lock()
	defer r.reaperMu.Unlock()
	if r.reaper == nil {
		r.reaper = startReaper(r.shell)
	}
	return r.reaper
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

// drain waits, once the shell has exited, until its output is all read.
// Output still waiting in the pipe, or a slow consumer (an offload file on a
// busy disk), is waited for however long it takes. Only when the reader has
// sat idle for drainGrace with the pipe still open — a background process
// the command started holds it and prints nothing — does it stop reading.
func drain(copied <-chan struct{}, p *progressWriter, pr *os.File) {
	last := p.n.Load()
	t := time.NewTimer(drainGrace)
	defer t.Stop()
	for {
		select {
		case <-copied:
			return
		case <-t.C:
			if n := p.n.Load(); n != last || p.writing.Load() {
				last = n // still delivering: wait on
				t.Reset(drainGrace)
				continue
			}
			_ = pr.Close() // a background process holds the pipe: stop reading
			<-copied
			return
		}
	}
}

// progressWriter passes writes on (hiding any ReaderFrom of the destination,
// so CopyBuffer uses our large buffer) and tells whether output is still
// being delivered.
type progressWriter struct {
	w       io.Writer
	n       atomic.Int64 // bytes delivered
	writing atomic.Bool  // inside a Write of the destination
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.writing.Store(true)
	n, err := p.w.Write(b)
	p.n.Add(int64(n))
	p.writing.Store(false)
	return n, err
}
