package e2e

// The attacks of issue 27 on todo-shell's readers of files other programs
// write, each run on the built binary with its memory and time watched:
// opencode's database (a damaged overflow page number, cells sharing one
// overflow chain, the file rewritten under watch), the shared plan's files
// (a FIFO or /dev/zero as the snapshot or the journal, a 3 GiB sparse
// journal) and Claude Code task lists (hard links to one large file).
// Each must end at once with one line naming the file, or show what it
// can, in at most maxRSS of memory.
//
// Each case logs its peak RSS, time and message: run
//
//	go test ./e2e -run TestAttack -v
//
// and, to see them on another build, TODO_SHELL_BINARY=/path/to/it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// maxRSS is what one reader may take, whatever its file holds (KiB).
const maxRSS = 100 << 10

// killKiB is when a run is stopped: 10×maxRSS, or TODO_SHELL_E2E_KILL_MB
// (to see how far an attack goes on another build).
func killKiB() int64 {
	if mb, err := strconv.ParseInt(os.Getenv("TODO_SHELL_E2E_KILL_MB"), 10, 64); err == nil && mb > 0 {
		return mb << 10
	}
	return 10 * maxRSS
}

// bounded is what a bounded run of the binary came to.
type bounded struct {
	peakKiB int64         // the most memory it held
	took    time.Duration // from start to its end
	code    int           // its exit status (-1: killed)
	out     string        // its standard output and error
	stopped string        // why it was stopped ("" when it ended by itself)
}

// String is the run as the table in the note has it.
func (b bounded) String() string {
	s := fmt.Sprintf("%d MB, %.2f s, exit %d", b.peakKiB>>10, b.took.Seconds(), b.code)
	if b.stopped != "" {
		s += ", stopped: " + b.stopped
	}
	return s
}

// launchEnv makes the test binary a launcher (see launch).
const launchEnv = "TODO_SHELL_E2E_LAUNCH"

// launch runs the command whose arguments are JSON-encoded in args, its
// standard streams passed through, and writes on file descriptor 3 its
// pid, then its peak resident set (KiB) once it ended; then exits as it
// did. A child the test started itself would report the test's own peak as
// well: Go starts a child with vfork, and Linux keeps the memory peak of
// the address space it left at exec. The launcher is a fresh process of a
// few MiB.
func launch(args string) {
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		os.Exit(125)
	}
	report := os.NewFile(3, "report")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		os.Exit(126)
	}
	fmt.Fprintf(report, "pid %d\n", cmd.Process.Pid)
	_ = cmd.Wait()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		fmt.Fprintf(report, "maxrss %d\n", ru.Maxrss)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// launched is the binary started through the launcher (see launch): its
// pid and its peak resident set come in reports.
type launched struct {
	cmd     *exec.Cmd
	reports chan string
	pid     int
	peakKiB int64
}

// launcher is a command that runs the binary with args through the
// launcher, in a process group of its own; start it with start.
func launcher(dir string, env []string, args ...string) *exec.Cmd {
	argv, _ := json.Marshal(append([]string{binary}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^$", string(argv))
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), launchEnv+"=1", "NO_COLOR=1"), env...)
	return cmd
}

// start starts cmd (made by launcher) with startFn (cmd.Start, or a
// pseudo-terminal's), its reports read as they come.
func start(t *testing.T, cmd *exec.Cmd, startFn func() error) *launched {
	t.Helper()
	rr, rw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{rw}
	if err := startFn(); err != nil {
		t.Fatal(err)
	}
	_ = rw.Close()
	l := &launched{cmd: cmd, reports: make(chan string, 4)}
	go func() {
		sc := bufio.NewScanner(rr)
		for sc.Scan() {
			l.reports <- sc.Text()
		}
		close(l.reports)
		_ = rr.Close()
	}()
	return l
}

// take reads one report.
func (l *launched) take(r string) {
	if v, ok := strings.CutPrefix(r, "pid "); ok {
		l.pid, _ = strconv.Atoi(v)
	}
	if v, ok := strings.CutPrefix(r, "maxrss "); ok {
		n, _ := strconv.ParseInt(v, 10, 64)
		l.peakKiB = max(l.peakKiB, n)
	}
}

// poll takes the reports there are and the binary's resident set now.
func (l *launched) poll() {
	for {
		select {
		case r, ok := <-l.reports:
			if !ok {
				return
			}
			l.take(r)
			continue
		default:
		}
		break
	}
	if l.pid != 0 {
		l.peakKiB = max(l.peakKiB, rssKiB(l.pid))
	}
}

// finish takes the reports left once the launcher ended.
func (l *launched) finish() {
	for r := range l.reports {
		l.take(r)
	}
}

// kill stops the launcher and the binary.
func (l *launched) kill() { _ = syscall.Kill(-l.cmd.Process.Pid, syscall.SIGKILL) }

// runBounded runs the binary with args in dir, env added, stdin fed (and
// kept open until the output holds until, when not empty), and stops it
// (SIGKILL) once it holds more than 10×maxRSS or runs longer than limit:
// an attack that works must not take the machine with it.
func runBounded(t *testing.T, dir string, env []string, stdin, until string, limit time.Duration, args ...string) bounded {
	t.Helper()
	cmd := launcher(dir, append(env, "TERM=dumb"), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &screen{tty: io.Discard}
	cmd.Stdout, cmd.Stderr = out, out
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	l := start(t, cmd, cmd.Start)
	closeAfter := until == "" // else closed once the output holds until
	go func() {
		_, _ = io.WriteString(in, stdin)
		if closeAfter {
			_ = in.Close()
		}
	}()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	var b bounded
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for {
		select {
		case <-done:
			b.took = time.Since(begin)
			l.finish()
			b.peakKiB, b.code, b.out = l.peakKiB, cmd.ProcessState.ExitCode(), out.text()
			return b
		case <-tick.C:
			l.poll()
			if until != "" && strings.Contains(out.text(), until) {
				_ = in.Close()
				until = ""
			}
			if l.peakKiB > killKiB() && b.stopped == "" {
				b.stopped = fmt.Sprintf("over %d MB", killKiB()>>10)
				l.kill()
			}
		case <-deadline:
			if b.stopped == "" {
				b.stopped = fmt.Sprintf("still running after %v", limit)
				l.kill()
			}
		}
	}
}

// rssKiB is the resident set of process pid (0 once it is gone).
func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return n
		}
	}
	return 0
}

// check fails the test unless the run ended by itself within maxRSS and
// limit, with no panic, and its output holds each of want; it logs the
// run for the table.
func (b bounded) check(t *testing.T, limit time.Duration, want ...string) {
	t.Helper()
	t.Logf("%s; output: %q", b, lastLines(b.out, 3))
	switch {
	case b.stopped != "":
		t.Errorf("stopped: %s", b.stopped)
	case b.peakKiB > maxRSS:
		t.Errorf("%d MB of memory, over %d MB", b.peakKiB>>10, maxRSS>>10)
	case b.took > limit:
		t.Errorf("%v, over %v", b.took, limit)
	case strings.Contains(b.out, "panic:") || strings.Contains(b.out, "goroutine "):
		t.Errorf("a panic:\n%s", lastLines(b.out, 20))
	}
	for _, w := range want {
		if !strings.Contains(b.out, w) {
			t.Errorf("no %q in:\n%s", w, lastLines(b.out, 20))
		}
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestAttackOpencodeDatabase: damaged and hostile opencode databases
// through replay, watch --opencode and watch --all (which reads the
// database unasked). Before: a panic ("slice bounds out of range",
// exit 2, a goroutine dump) for an overflow page number 0; 3 GB and a
// fatal out-of-memory for 80 cells sharing a 16 MiB overflow chain; 55 ms
// a row for cells sharing a session_id chain.
func TestAttackOpencodeDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		attack opencodetest.Attack
		cells  int
		fails  bool // one line naming the file, exit 1
		want   string
	}{
		{"overflow page number 0", opencodetest.ZeroOverflow, 0, true, "not a valid SQLite database (database disk image is malformed)"},
		{"80 cells sharing a 16 MiB data chain", opencodetest.SharedData, 80, false, "80 todowrite part(s) skipped: over 4 MiB"},
		{"10,919 cells sharing a 16 MiB data chain", opencodetest.SharedData, 10919, false, "10919 todowrite part(s) skipped: over 4 MiB"},
		{"a 64 KiB page of cells sharing a 16 MiB data chain", opencodetest.SharedData, 0, true, "not a valid SQLite database (database disk image is malformed)"},
		{"400 cells sharing a 16 MiB session_id chain", opencodetest.SharedSessionID, 400, false, "Call 2"},
		{"10,919 cells sharing a 16 MiB session_id chain", opencodetest.SharedSessionID, 10919, false, "Call 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			data := filepath.Join(home, "share")
			db := opencodetest.Hostile(t, mkdir(t, filepath.Join(data, "opencode")), "/src/app", tt.attack, tt.cells)
			env := []string{"HOME=" + home, "XDG_DATA_HOME=" + data, "XDG_STATE_HOME=" + filepath.Join(home, "state")}
			limit := 10 * time.Second
			for _, run := range []struct {
				what string
				args []string
			}{
				{"replay", []string{"replay", "--summary", db}},
				{"watch --opencode --once", []string{"watch", "--opencode", "/src/app", "--once"}},
			} {
				t.Run(run.what, func(t *testing.T) {
					b := runBounded(t, home, env, "", "", limit, run.args...)
					want := []string{tt.want}
					if tt.fails {
						want = append(want, db)
						if b.code != 1 || strings.Count(strings.TrimSpace(b.out), "\n") != 0 {
							t.Errorf("exit %d, want 1 and one line:\n%s", b.code, b.out)
						}
					}
					if run.what == "replay" && !tt.fails {
						want = []string{"2 versions"}
					}
					b.check(t, limit, want...)
				})
			}
			// watch --all reads opencode's database whatever it holds: it
			// must not fall over, shows the session's plan when it can,
			// and says why when it cannot.
			t.Run("watch --all", func(t *testing.T) {
				b := runWatchAll(t, home, env)
				b.check(t, limit)
				if !tt.fails && !strings.Contains(b.out, "Call 2") {
					t.Errorf("the session's plan is not shown:\n%s", lastLines(b.out, 20))
				}
				if tt.fails && !strings.Contains(b.out, "⚠ opencode.db damaged: ") {
					t.Errorf("no word of the damaged database:\n%s", lastLines(b.out, 20))
				}
			})
		})
	}
}

// runWatchAll runs watch --all in a pseudo-terminal until it has drawn
// its first screen (or for 10 s), then quits it, and returns the run.
func runWatchAll(t *testing.T, home string, env []string) bounded {
	t.Helper()
	cmd := launcher(home, append(env, "TERM=xterm-256color"), "watch", "--all")
	var tty *os.File
	begin := time.Now()
	l := start(t, cmd, func() (err error) {
		tty, err = pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
		return err
	})
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	var b bounded
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	quit := false
	for {
		select {
		case <-done:
			l.finish()
			b.took, b.code, b.out, b.peakKiB = time.Since(begin), cmd.ProcessState.ExitCode(), scr.text(), l.peakKiB
			return b
		case <-time.After(50 * time.Millisecond):
		}
		l.poll()
		switch text := scr.text(); {
		case l.peakKiB > killKiB() && b.stopped == "":
			b.stopped = fmt.Sprintf("over %d MB", killKiB()>>10)
			l.kill()
		case time.Now().After(deadline) && b.stopped == "":
			b.stopped = "no screen after 10s"
			l.kill()
		case !quit && strings.Contains(text, "q quits"):
			quit = true
			time.AfterFunc(500*time.Millisecond, func() { _, _ = tty.Write([]byte("q")) })
		}
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestAttackOpencodeRewrittenLive: watch --opencode goes on while its
// database is rewritten in place under it for a few seconds — pages of
// other databases, damaged pages, the file cut and grown — (the
// hand-written reader crashed in 3 of 4 such runs), says what went wrong
// beside the last good plan, and shows the plan again once the file is
// good.
func TestAttackOpencodeRewrittenLive(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	data := filepath.Join(home, "share")
	dir := mkdir(t, filepath.Join(data, "opencode"))
	good := opencodetest.Hostile(t, mkdir(t, filepath.Join(home, "good")), "/src/app", opencodetest.Intact, 0)
	bad := opencodetest.Hostile(t, mkdir(t, filepath.Join(home, "bad")), "/src/app", opencodetest.ZeroOverflow, 0)
	goodBytes, _ := os.ReadFile(good)
	badBytes, _ := os.ReadFile(bad)
	db := filepath.Join(dir, "opencode.db")
	if err := os.WriteFile(db, goodBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "watch", "--opencode", "/src/app")
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TERM=xterm-256color", "HOME="+home, "XDG_DATA_HOME="+data, "XDG_STATE_HOME="+filepath.Join(home, "state"))
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	scr.waitFor(t, "Call 3", 10*time.Second)
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(27, 27))
	peak := int64(0)
	end := time.Now().Add(4 * time.Second)
	for i := 0; time.Now().Before(end); i++ {
		switch i % 4 {
		case 0: // another database's pages over it
			_, _ = f.WriteAt(badBytes[:min(len(badBytes), rng.IntN(len(goodBytes)))], 0)
		case 1: // random bytes at a random place
			junk := make([]byte, 1+rng.IntN(70000))
			for j := range junk {
				junk[j] = byte(rng.UintN(256))
			}
			_, _ = f.WriteAt(junk, int64(rng.IntN(len(goodBytes))))
		case 2: // cut short
			_ = f.Truncate(int64(rng.IntN(len(goodBytes))))
		case 3: // whole again, for a moment
			_, _ = f.WriteAt(goodBytes, 0)
		}
		peak = max(peak, rssKiB(cmd.Process.Pid))
		select {
		case <-exited:
			t.Fatalf("watch ended while the file was rewritten:\n%s", lastLines(scr.text(), 30))
		case <-time.After(time.Duration(rng.IntN(20)) * time.Millisecond):
		}
	}
	// A damaged file at rest: said beside the last good plan.
	if _, err := f.WriteAt(badBytes, 0); err != nil {
		t.Fatal(err)
	}
	_ = f.Truncate(int64(len(badBytes)))
	scr.waitFor(t, "opencode.db damaged", 10*time.Second)
	// Good again: the plan, with nothing refused.
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(goodBytes, 0); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	scr.waitFor(t, "Call 3", 10*time.Second)
	peak = max(peak, rssKiB(cmd.Process.Pid))
	t.Logf("peak RSS %d MB", peak>>10)
	if peak > maxRSS {
		t.Errorf("%d MB", peak>>10)
	}
	_, _ = tty.Write([]byte("q"))
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("watch did not quit on q")
	}
	if s := scr.text(); strings.Contains(s, "panic:") || strings.Contains(s, "goroutine ") {
		t.Fatalf("a panic:\n%s", s)
	}
}

// planEnv is the environment of a shell or server on the shared plan
// NAME under state.
func planEnv(home string) []string {
	return []string{"HOME=" + home, "XDG_STATE_HOME=" + filepath.Join(home, "state")}
}

// planDir makes the shared plan build's directory under home, one task in
// it, and returns it.
func planDir(t *testing.T, home string) string {
	t.Helper()
	b := runBounded(t, home, planEnv(home), "", "", 10*time.Second, "--plan", "build", "-c", `TaskCreate '{"subject":"Write the parser","description":"first"}'`)
	if b.code != 0 {
		t.Fatalf("TaskCreate: %s", b.out)
	}
	return filepath.Join(home, "state", "todo-shell", "plans", "build")
}

// mcpTaskList is what a client says to `todo-shell mcp --plan build` to
// list the plan's tasks, then it closes the connection.
const mcpTaskList = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"TaskList","arguments":{}}}
`

// mcpListed is in the server's answer to the TaskList call.
const mcpListed = `"id":2,"result"`

// TestAttackSharedPlan: the shared plan's snapshot or journal planted as a
// link to /dev/zero or a FIFO, or a 3 GiB sparse journal. Before:
// `mcp --plan` reached 4.7 GB in 18 s and `--plan -c TaskList` died of
// out-of-memory on /dev/zero; both hung on a FIFO; the 9th TaskCreate
// blocked in write(2) on a FIFO journal holding the lock; the sparse
// journal took 3.17 GB in `watch --plan --once` and in mcp.
func TestAttackSharedPlan(t *testing.T) {
	t.Parallel()
	// Each line about 4 KiB: the 17th fills a pipe's 64 KiB.
	creates := strings.Repeat(`TaskCreate '{"subject":"More","description":"`+strings.Repeat("x", 3900)+`"}'`+"\n", 20)
	tests := []struct {
		name  string
		plant func(t *testing.T, dir string)
		args  []string
		stdin string
		until string // stdin stays open until the output holds it
		want  []string
	}{
		{"tasks.json a link to /dev/zero: mcp", linkZero("tasks.json"), []string{"mcp", "--plan", "build"}, mcpTaskList, mcpListed, []string{"Write the parser"}},
		{"tasks.json a link to /dev/zero: -c TaskList", linkZero("tasks.json"), []string{"--plan", "build", "-c", "TaskList"}, "", "", []string{"Write the parser"}},
		{"tasks.json a FIFO: mcp", fifo("tasks.json"), []string{"mcp", "--plan", "build"}, mcpTaskList, mcpListed, []string{"Write the parser"}},
		{"tasks.json a FIFO: -c TaskList", fifo("tasks.json"), []string{"--plan", "build", "-c", "TaskList"}, "", "", []string{"Write the parser"}},
		{"tasks.jsonl a FIFO: 20 TaskCreate", fifo("tasks.jsonl"), []string{"--plan", "build"}, creates, "", []string{"tasks.jsonl", "not a regular file (a FIFO)"}},
		{"tasks.jsonl a FIFO: watch --plan --once", fifo("tasks.jsonl"), []string{"watch", "--plan", "build", "--once"}, "", "", []string{"tasks.jsonl", "not a regular file (a FIFO)"}},
		{"tasks.lock a FIFO: TaskCreate", fifo("tasks.lock"), []string{"--plan", "build", "-c", `TaskCreate '{"subject":"x","description":"y"}'`}, "", "", []string{"tasks.lock", "not a regular file (a FIFO)"}},
		{"3 GiB sparse tasks.jsonl: watch --plan --once", sparse, []string{"watch", "--plan", "build", "--once"}, "", "", []string{"no plan build"}},
		{"3 GiB sparse tasks.jsonl: mcp", sparse, []string{"mcp", "--plan", "build"}, mcpTaskList, mcpListed, []string{`No tasks`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.plant(t, planDir(t, home))
			limit := 10 * time.Second
			b := runBounded(t, home, planEnv(home), tt.stdin, tt.until, limit, tt.args...)
			b.check(t, limit, tt.want...)
		})
	}
}

func linkZero(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		_ = os.Remove(filepath.Join(dir, name))
		if err := os.Symlink("/dev/zero", filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}

func fifo(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		_ = os.Remove(filepath.Join(dir, name))
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// sparse makes the plan's journal 3 GiB of holes, its snapshot gone.
func sparse(t *testing.T, dir string) {
	_ = os.Remove(filepath.Join(dir, "tasks.json"))
	f, err := os.OpenFile(filepath.Join(dir, "tasks.jsonl"), os.O_RDWR|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
}

// TestAttackClaudeTaskList: 100 hard links to one 16 MiB task file in a
// Claude Code task list (17 MB on disk) — 2.32 GB in watch --claude-tasks
// --once before — and a good task beside them.
func TestAttackClaudeTaskList(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	list := mkdir(t, filepath.Join(home, ".claude", "tasks", "team"))
	big := filepath.Join(home, "big.json")
	w, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `{"id":"1","subject":"%s","status":"pending"}`, strings.Repeat("x", 16<<20-100)) // just under 16 MiB
	_ = bw.Flush()
	_ = w.Close()
	for i := 0; i < 100; i++ {
		if err := os.Link(big, filepath.Join(list, fmt.Sprintf("%d.json", 100+i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(list, "7.json"), []byte(`{"id":"7","subject":"Ship it","status":"in_progress"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	limit := 10 * time.Second
	b := runBounded(t, home, []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude")}, "", "", limit,
		"watch", "--claude-tasks", "team", "--once")
	b.check(t, limit, "Ship it", "99 file(s) skipped: a hard link to a file already read", "1 file(s) skipped: over 1 MiB")
}
