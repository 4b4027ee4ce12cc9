package e2e

// Whole-process benchmarks: each runs the todo-shell binary built by
// TestMain, the way a user does. Run them with
//
//	go test -run '^$' -bench Process -benchtime 10x -count 5 .
//
// and see BENCHMARKS.md for the figures.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// BenchmarkProcessTrue is /bin/true, start to exit: the baseline the
// start-up figures are read beside on a shared, noisy machine.
func BenchmarkProcessTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessHelp is `todo-shell --help`, start to exit.
func BenchmarkProcessHelp(b *testing.B) {
	for b.Loop() {
		if err := exec.Command(binary, "--help").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// startShell starts the shell in a pseudo-terminal and returns when the
// prompt is drawn.
func startShell(b *testing.B, dir string) (*exec.Cmd, *os.File, *screen, time.Duration) {
	return startShellOn(b, dir, true)
}

// startShellOn is startShell on a terminal that answers queries, or (answers
// false) on one that never does.
func startShellOn(b *testing.B, dir string, answers bool) (*exec.Cmd, *os.File, *screen, time.Duration) {
	cmd := exec.Command(binary, "--session", "bench", "--offload-dir", filepath.Join(dir, ".offload"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+filepath.Join(dir, "state"))
	begin := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		b.Fatal(err)
	}
	scr := &screen{tty: tty}
	if !answers {
		scr.tty = io.Discard
	}
	go io.Copy(scr, tty)
	for !scr.has("❯") {
		if time.Since(begin) > 5*time.Second {
			b.Fatal("no prompt")
		}
		time.Sleep(200 * time.Microsecond)
	}
	return cmd, tty, scr, time.Since(begin)
}

func (s *screen) has(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.buf.Bytes(), []byte(what))
}

func stopShell(cmd *exec.Cmd, tty *os.File) {
	tty.Write([]byte{4})
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		cmd.Process.Kill()
	}
	tty.Close()
}

// BenchmarkProcessFirstPrompt is the time from starting the shell in a
// terminal to its prompt on the screen.
func BenchmarkProcessFirstPrompt(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		cmd, tty, _, d := startShell(b, b.TempDir())
		total += d
		b.StopTimer()
		stopShell(cmd, tty)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-prompt")
}

// BenchmarkProcessFirstPromptSilentTerminal is the first prompt on a
// terminal that answers no query: the shell's questions (the background
// colour, mode 2027) wait for no answer.
func BenchmarkProcessFirstPromptSilentTerminal(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		cmd, tty, _, d := startShellOn(b, b.TempDir(), false)
		total += d
		b.StopTimer()
		stopShell(cmd, tty)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-prompt")
}

// BenchmarkProcessFirstPromptHistory10k is the first prompt with a full
// history file (10,000 entries) to read.
func BenchmarkProcessFirstPromptHistory10k(b *testing.B) {
	dir := b.TempDir()
	os.MkdirAll(filepath.Join(dir, "state", "todo-shell"), 0o700)
	var sb strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&sb, "%q\n", fmt.Sprintf("git commit -am 'change number %d' && make test", i))
	}
	os.WriteFile(filepath.Join(dir, "state", "todo-shell", "history"), []byte(sb.String()), 0o600)
	var total time.Duration
	for b.Loop() {
		cmd, tty, _, d := startShell(b, dir)
		total += d
		b.StopTimer()
		stopShell(cmd, tty)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-prompt")
}

// procStat returns the process's resident set (KiB) and CPU time so far.
func procStat(pid int) (rssKiB int, cpu time.Duration) {
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			rssKiB, _ = strconv.Atoi(strings.Fields(line)[1])
		}
	}
	// CPU time of every thread, in nanoseconds (schedstat is exact, where
	// /proc/PID/stat counts in 10 ms ticks).
	threads, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	for _, t := range threads {
		b, _ := os.ReadFile(t)
		if f := strings.Fields(string(b)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			cpu += time.Duration(ns)
		}
	}
	return
}

// BenchmarkProcessIdle leaves the shell at its prompt (after a TodoWrite,
// so the panel is up) and reports its memory and the CPU it spends idle.
func BenchmarkProcessIdle(b *testing.B) {
	for b.Loop() {
		cmd, tty, scr, _ := startShell(b, b.TempDir())
		tty.Write([]byte(`TodoWrite '{"todos":[{"content":"Wait","activeForm":"Waiting","status":"in_progress"}]}'` + "\r"))
		for !scr.has("Waiting") {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		_, cpu0 := procStat(cmd.Process.Pid)
		scr.mu.Lock()
		bytes0 := scr.buf.Len()
		scr.mu.Unlock()
		time.Sleep(3 * time.Second)
		rss, cpu1 := procStat(cmd.Process.Pid)
		scr.mu.Lock()
		drawn := scr.buf.Len() - bytes0
		scr.mu.Unlock()
		b.ReportMetric(float64(rss)/1024, "MB-RSS")
		b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/3, "ms-CPU-per-s-idle")
		b.ReportMetric(float64(drawn), "bytes-drawn-idle")
		stopShell(cmd, tty)
	}
}

// BenchmarkProcessSeq50M runs `seq 1 50000000` (about 440 MB of output) as
// a bash line and reports todo-shell's peak RSS and its time against
// `seq 1 50000000 > file`.
func BenchmarkProcessSeq50M(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		begin := time.Now()
		if err := exec.Command("bash", "-c", "seq 1 50000000 > "+filepath.Join(dir, "plain.txt")).Run(); err != nil {
			b.Fatal(err)
		}
		plain := time.Since(begin)
		cmd := exec.Command(binary, "--session", "seq", "--offload-dir", filepath.Join(dir, ".offload"), "-c", "seq 1 50000000")
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		begin = time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		ours := time.Since(begin)
		if !strings.Contains(out.String(), "… 49999990 more lines") {
			b.Fatalf("output: %q", out.String())
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB
		b.ReportMetric(float64(rss)/1024, "MB-peak-RSS")
		b.ReportMetric(ours.Seconds(), "s-todo-shell")
		b.ReportMetric(plain.Seconds(), "s-plain")
		b.ReportMetric(ours.Seconds()/plain.Seconds(), "x-of-plain")
		os.RemoveAll(filepath.Join(dir, ".offload"))
	}
}

// BenchmarkProcessSeq50MInREPL is the same line typed into the interactive
// shell, whose live area follows the output as it streams.
func BenchmarkProcessSeq50MInREPL(b *testing.B) {
	for b.Loop() {
		dir := b.TempDir()
		cmd, tty, scr, _ := startShell(b, dir)
		begin := time.Now()
		tty.Write([]byte("seq 1 50000000\r"))
		for !scr.has("more lines") {
			time.Sleep(5 * time.Millisecond)
		}
		d := time.Since(begin)
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				kib, _ := strconv.Atoi(strings.Fields(line)[1])
				b.ReportMetric(float64(kib)/1024, "MB-peak-RSS")
			}
		}
		b.ReportMetric(d.Seconds(), "s-todo-shell")
		stopShell(cmd, tty)
	}
}

// callsFile writes n lines made by line(i) to a file and returns its path.
func callsFile(b *testing.B, n int, line func(i int) string) string {
	path := filepath.Join(b.TempDir(), "in")
	f, _ := os.Create(path)
	for i := 0; i < n; i++ {
		io.WriteString(f, line(i)+"\n")
	}
	f.Close()
	return path
}

const tenTodos = `{"todos":[{"content":"Implement step 0 of the plan","activeForm":"Implementing step 0 of the plan","status":"completed"},{"content":"Implement step 1 of the plan","activeForm":"Implementing step 1 of the plan","status":"completed"},{"content":"Implement step 2 of the plan","activeForm":"Implementing step 2 of the plan","status":"completed"},{"content":"Implement step 3 of the plan","activeForm":"Implementing step 3 of the plan","status":"completed"},{"content":"Implement step 4 of the plan","activeForm":"Implementing step 4 of the plan","status":"in_progress"},{"content":"Implement step 5 of the plan","activeForm":"Implementing step 5 of the plan","status":"pending"},{"content":"Implement step 6 of the plan","activeForm":"Implementing step 6 of the plan","status":"pending"},{"content":"Implement step 7 of the plan","activeForm":"Implementing step 7 of the plan","status":"pending"},{"content":"Implement step 8 of the plan","activeForm":"Implementing step 8 of the plan","status":"pending"},{"content":"Implement step 9 of the plan","activeForm":"Implementing step 9 of the plan","status":"pending"}]}`

func runFile(b *testing.B, path string, n int, args ...string) {
	in, _ := os.Open(path)
	defer in.Close()
	out, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	defer out.Close()
	cmd := exec.Command(binary, args...)
	cmd.Stdin, cmd.Stdout, cmd.Dir = in, out, b.TempDir() // files: no copying goroutine in this process
	begin := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/time.Since(begin).Seconds(), "calls/s")
}

// BenchmarkProcessServe pipes 200,000 TodoWrite calls (10 items each)
// through `todo-shell serve`.
func BenchmarkProcessServe(b *testing.B) {
	const n = 200_000
	path := callsFile(b, n, func(i int) string {
		return fmt.Sprintf(`{"type":"tool_use","id":"toolu_%08d","name":"TodoWrite","input":%s}`, i, tenTodos)
	})
	for b.Loop() {
		runFile(b, path, n, "serve")
	}
}

// BenchmarkProcessScript pipes 200,000 TodoWrite lines through script mode.
func BenchmarkProcessScript(b *testing.B) {
	const n = 200_000
	path := callsFile(b, n, func(int) string { return "TodoWrite '" + tenTodos + "'" })
	for b.Loop() {
		runFile(b, path, n)
	}
}

// waitNew waits until what the shell wrote after offset from, escape
// sequences removed, contains what.
func (s *screen) waitNew(b *testing.B, from int, what string) {
	// Checked every 100 µs, not every testwait.Interval: the benchmark
	// times how soon the text is drawn.
	drawn := testwait.UntilEvery(10*time.Second, 100*time.Microsecond, func() bool {
		s.mu.Lock()
		written := string(s.buf.Bytes()[from:]) // copied: strip without holding the writer up
		s.mu.Unlock()
		return strings.Contains(ansi.Strip(written), what)
	})
	if !drawn {
		b.Fatalf("%q not drawn", what)
	}
}

func (s *screen) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

// median reports the median of ds in milliseconds under name.
func reportMedian(b *testing.B, ds []time.Duration, name string) {
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name)
}

// BenchmarkProcessKeystrokeEcho types 40 keys one at a time, 30 ms apart
// (faster than anyone types), and reports the median time from a key's
// write to its echo on the screen. Keys sent back to back would measure the
// Screen's frame limit (a draw at most every 16.7 ms) instead.
func BenchmarkProcessKeystrokeEcho(b *testing.B) {
	cmd, tty, scr, _ := startShell(b, b.TempDir())
	defer stopShell(cmd, tty)
	var ds []time.Duration
	for b.Loop() {
		for i := 0; i < 40; i++ {
			c := string(rune('a' + i%26))
			time.Sleep(30 * time.Millisecond)
			from := scr.len()
			begin := time.Now()
			tty.Write([]byte(c))
			scr.waitNew(b, from, c)
			ds = append(ds, time.Since(begin))
		}
		tty.Write([]byte{3}) // Ctrl+C clears the line
	}
	reportMedian(b, ds, "ms-median-echo")
}

// BenchmarkProcessPaste22KB pastes 22 KB (300 lines) in one bracketed paste
// and reports the time until its last line is drawn in the input.
func BenchmarkProcessPaste22KB(b *testing.B) {
	cmd, tty, scr, _ := startShell(b, b.TempDir())
	defer stopShell(cmd, tty)
	var text strings.Builder
	for i := 0; text.Len() < 22<<10-100; i++ {
		fmt.Fprintf(&text, "echo line %03d of the pasted text, long enough to look like real input.\r", i)
	}
	text.WriteString("echo the-last-pasted-line")
	paste := "\x1b[200~" + text.String() + "\x1b[201~"
	var ds []time.Duration
	for b.Loop() {
		from := scr.len()
		begin := time.Now()
		tty.Write([]byte(paste))
		scr.waitNew(b, from, "the-last-pasted-line")
		ds = append(ds, time.Since(begin))
		from = scr.len()
		tty.Write([]byte{3}) // Ctrl+C clears the input
		scr.waitNew(b, from, "❯")
	}
	reportMedian(b, ds, "ms-paste-echoed")
}

// BenchmarkProcessTodoWrite50ToPanel types a TodoWrite of 50 items and
// reports the time from Enter to the new panel on the screen.
func BenchmarkProcessTodoWrite50ToPanel(b *testing.B) {
	cmd, tty, scr, _ := startShell(b, b.TempDir())
	defer stopShell(cmd, tty)
	var ds []time.Duration
	round := 0
	for b.Loop() {
		round++
		var items []string
		for i := 0; i < 50; i++ {
			items = append(items, fmt.Sprintf(`{"content":"Task %d of round %d","activeForm":"Doing task %d","status":"pending"}`, i, round, i))
		}
		from := scr.len()
		tty.Write([]byte(`TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}'`))
		scr.waitNew(b, from, fmt.Sprintf(`"Task 49 of round %d"`, round))
		from = scr.len()
		begin := time.Now()
		tty.Write([]byte("\r"))
		scr.waitNew(b, from, "Tasks 0/50")
		ds = append(ds, time.Since(begin))
	}
	reportMedian(b, ds, "ms-enter-to-panel")
}

// BenchmarkProcessUnbracketed5KB writes a 5 KB TodoWrite line in one write,
// as a terminal without bracketed paste delivers a paste, and reports the
// time until its end is drawn in the input. Bubble Tea v1 makes it one
// message per word and one per space.
func BenchmarkProcessUnbracketed5KB(b *testing.B) {
	cmd, tty, scr, _ := startShell(b, b.TempDir())
	defer stopShell(cmd, tty)
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d of the plan","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	line := `TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}' # the-end`
	var ds []time.Duration
	for b.Loop() {
		from := scr.len()
		begin := time.Now()
		tty.Write([]byte(line))
		scr.waitNew(b, from, "# the-end")
		ds = append(ds, time.Since(begin))
		from = scr.len()
		tty.Write([]byte{3}) // Ctrl+C clears the input
		scr.waitNew(b, from, "❯")
	}
	reportMedian(b, ds, "ms-line-shown")
}
