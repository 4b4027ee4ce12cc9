package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// TestWatchOpencodeLive runs `todo-shell watch --opencode DIR` in a
// pseudo-terminal while a writer that stays open (python3's sqlite3, WAL
// mode, as opencode runs its database) adds todowrite rounds to the
// session of DIR in opencode.db: each round's plan reaches the panel. How
// fast is measured by BenchmarkWatchLagOpencode, not asserted here.
func TestWatchOpencodeLive(t *testing.T) {
	t.Parallel()
	w := startOpencodeWatch(t)
	w.scr.waitFor(t, "✓ Write unit tests", 10*time.Second) // the export's plan
	for r := 0; r < 3; r++ {
		w.round(t, r)
		w.scr.waitFor(t, "Task "+strconv.Itoa(r)+" of round "+strconv.Itoa(r), 10*time.Second)
	}
	w.tty.Write([]byte("q"))
	waitExit(t, w.cmd, "watch did not quit on q")
}

// TestWatchOpencodeCompletedInPlace runs `todo-shell watch --opencode
// DIR` while the writer adds each todowrite call as running and then
// updates that same part row in place to completed (its time_updated
// unchanged, the todo table and the session's time_updated updated), as
// opencode writes a tool call: each completed call's plan reaches the
// panel, live. (Parts kept by rowid and time_updated froze the panel on
// the version before the first such call, for good.)
func TestWatchOpencodeCompletedInPlace(t *testing.T) {
	t.Parallel()
	w := startOpencodeWatch(t)
	w.scr.waitFor(t, "✓ Write unit tests", 10*time.Second) // the export's plan
	for r := 0; r < 3; r++ {
		w.send(t, "running "+strconv.Itoa(r))
		w.send(t, "complete "+strconv.Itoa(r))
		w.scr.waitFor(t, "Task "+strconv.Itoa(r)+" of round "+strconv.Itoa(r), 10*time.Second)
	}
	w.tty.Write([]byte("q"))
	waitExit(t, w.cmd, "watch did not quit on q")
}

// BenchmarkWatchLagOpencode is the time from a commit to opencode's
// database (in its -wal file) to the new version on watch --opencode's
// screen (target ≤ 100 ms).
func BenchmarkWatchLagOpencode(b *testing.B) {
	w := startOpencodeWatch(b)
	w.scr.waitFor(b, "✓ Write unit tests", 10*time.Second)
	var lags []time.Duration
	for r := 0; r < b.N; r++ {
		w.round(b, r)
		committed := time.Now()
		w.scr.waitFor(b, "Task "+strconv.Itoa(r%10)+" of round "+strconv.Itoa(r), 10*time.Second)
		lags = append(lags, time.Since(committed))
	}
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "median-ms")
	w.tty.Write([]byte("q"))
	waitExit(b, w.cmd, "watch did not quit on q")
}

// opencodeWatch is watch --opencode over a database a writer keeps open.
type opencodeWatch struct {
	cmd     *exec.Cmd
	tty     *os.File
	scr     *screen
	in      io.Writer
	answers *bufio.Reader
}

func startOpencodeWatch(t testing.TB) *opencodeWatch {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to write an opencode database with")
	}
	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	data := filepath.Join(home, ".local", "share")
	os.MkdirAll(filepath.Join(data, "opencode"), 0o700)
	writer := exec.Command(py, "../internal/opencodedb/testdata/mkdb.py", filepath.Join(data, "opencode", "opencode.db"),
		"--serve", "--sessions", "3", "--directory", project)
	in, _ := writer.StdinPipe()
	out, _ := writer.StdoutPipe()
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); writer.Wait() })
	w := &opencodeWatch{in: in, answers: bufio.NewReader(out)}
	w.send(t, "nothing") // the database is written
	w.cmd = exec.Command(binary, "watch", "--opencode", project)
	w.cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", "HOME="+home, "XDG_DATA_HOME="+data)
	w.tty, err = pty.StartWithSize(w.cmd, &pty.Winsize{Rows: 30, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.tty.Close() })
	w.scr = &screen{tty: w.tty}
	go io.Copy(w.scr, w.tty)
	return w
}

// send gives the writer one line and waits until it is done (committed).
func (w *opencodeWatch) send(t testing.TB, line string) {
	t.Helper()
	if _, err := w.in.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.answers.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
}

// round has the writer add round r: a todowrite of ten tasks "Task i of
// round r", task r%10 in progress, and a bash call.
func (w *opencodeWatch) round(t testing.TB, r int) { w.send(t, "round "+strconv.Itoa(r)) }

// realOpencodeWAL are the lengths the real opencode 1.18.33's
// opencode.db-wal had while it ran, held by the fake API before its turn
// N (N todowrite calls done), then on exit; each is a prefix of the next
// (internal/opencodedb/real_test.go has the same).
var realOpencodeWAL = []int64{593312, 931152, 1260752, 1610952, 1948792, 2183632}

// TestWatchOpencodeRealDB runs `todo-shell watch --opencode` in tmux over
// the database the real opencode 1.18.33 wrote
// (internal/opencodedb/testdata/opencode-1.18.33_running.db and its -wal),
// the -wal written as opencode wrote it: from where it was before the
// first todowrite, grown in place to where it was after each. Each version
// reaches the window, no read refused: the plan that grows, the item
// reworded, the one dropped unfinished gone.
func TestWatchOpencodeRealDB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := filepath.Join(dir, "share")
	db := filepath.Join(data, "opencode", "opencode.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	main, err := os.ReadFile("../internal/opencodedb/testdata/opencode-1.18.33_running.db")
	if err != nil {
		t.Fatal(err)
	}
	wal := opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33_running.db-wal.gz")
	if int64(len(wal)) != realOpencodeWAL[len(realOpencodeWAL)-1] {
		t.Fatalf("the -wal has %d bytes", len(wal))
	}
	os.WriteFile(db, main, 0o600)
	os.WriteFile(db+"-wal", wal[:realOpencodeWAL[0]], 0o600)
	env := "NO_COLOR=1 HOME=" + dir + " XDG_DATA_HOME=" + data + " XDG_STATE_HOME=" + filepath.Join(dir, "state")
	// The session is of /tmp/rec/p-ocdb, where opencode ran.
	tt := startTmuxEnv(t, 80, 24, dir, env, "watch", "--opencode", "/tmp/rec/p-ocdb")
	tt.waitUntil("watch waiting for the plan", func() bool { return strings.Contains(tt.screen(), "waiting for a plan") })
	f, err := os.OpenFile(db+"-wal", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, want := range []struct {
		has   []string
		hasNo []string
	}{
		{[]string{"Tasks 0/2", "Write the parser", "Write tests"}, nil},
		{[]string{"Tasks 1/4", "✓ Write the parser", "Write tests", "Update the docs", "Add a benchmark"}, nil},
		{[]string{"Tasks 2/4", "✓ Write unit tests", "Update the docs", "Add a benchmark"}, []string{"Write tests"}},
		{[]string{"Tasks 3/3", "✓ Update the docs"}, []string{"Add a benchmark"}},
	} {
		from, to := realOpencodeWAL[i], realOpencodeWAL[i+1]
		if _, err := f.WriteAt(wal[from:to], from); err != nil {
			t.Fatal(err)
		}
		tt.waitUntil(fmt.Sprintf("version %d: %q, not %q", i+1, want.has, want.hasNo), func() bool {
			s := tt.screen()
			for _, w := range want.has {
				if !strings.Contains(s, w) {
					return false
				}
			}
			// A read that failed would say "… not read: why".
			for _, w := range append(want.hasNo, "not read") {
				if strings.Contains(s, w) {
					return false
				}
			}
			return true
		})
	}
	// opencode's last turn ("All done."): the plan stays.
	if _, err := f.WriteAt(wal[realOpencodeWAL[4]:], realOpencodeWAL[4]); err != nil {
		t.Fatal(err)
	}
	tt.run("send-keys", "-t", "t", "q")
	tt.waitUntil("watch to end", func() bool { return strings.Contains(tt.run("display", "-p", "-t", "t", "#{pane_dead}"), "1") })
}

// TestWatchOpencodeRealDBCheckpointed: watch --opencode over the real
// database after opencode's next start checkpointed it (every page in the
// main file; the -wal begun anew, one frame, the old run's frames left
// behind it under the old salt) shows the session's last plan, from where
// opencode keeps it: the data directory, or where $OPENCODE_DB says (a
// path, or a name in the data directory), as opencode picks it.
func TestWatchOpencodeRealDBCheckpointed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		place string // the database, under the test's directory
		env   string // OPENCODE_DB, with DIR for the test's directory
	}{
		{"data directory", "share/opencode/opencode.db", ""},
		{"OPENCODE_DB path", "elsewhere/work.db", "DIR/elsewhere/work.db"},
		{"OPENCODE_DB name", "share/opencode/mine.db", "mine.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			data := filepath.Join(dir, "share")
			db := filepath.Join(dir, tc.place)
			os.MkdirAll(filepath.Dir(db), 0o700)
			main, err := os.ReadFile("../internal/opencodedb/testdata/opencode-1.18.33.db")
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(db, main, 0o600)
			os.WriteFile(db+"-wal", opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33.db-wal.gz"), 0o600)
			env := "NO_COLOR=1 HOME=" + dir + " XDG_DATA_HOME=" + data + " XDG_STATE_HOME=" + filepath.Join(dir, "state") +
				" OPENCODE_DB=" + strings.ReplaceAll(tc.env, "DIR", dir)
			tt := startTmuxEnv(t, 80, 24, dir, env, "watch", "--opencode", "/tmp/rec/p-ocdb")
			tt.waitUntil("the last plan", func() bool {
				s := tt.screen()
				return strings.Contains(s, "Tasks 3/3") && strings.Contains(s, "✓ Write unit tests") && !strings.Contains(s, "Add a benchmark")
			})
			if s := tt.screen(); strings.Contains(s, "not read") {
				t.Errorf("a read refused:\n%s", s)
			}
			tt.run("send-keys", "-t", "t", "q")
			tt.waitUntil("watch to end", func() bool { return strings.Contains(tt.run("display", "-p", "-t", "t", "#{pane_dead}"), "1") })
		})
	}
}

// TestWatchOpencodeRealDBNewSession: watch --opencode shows the first
// real session's last plan; then opencode is run again in the directory
// (the second real run: its start had checkpointed the -wal, its writes
// begin it anew over the old frames, written in place as it wrote them),
// and watch follows the new session from when it is made, then each of
// its versions.
func TestWatchOpencodeRealDBNewSession(t *testing.T) {
	t.Parallel()
	// Where the second run's -wal had its last commit before its turn
	// N = 0…2, and on exit (internal/opencodedb/real_test.go).
	lengths := []int64{333752, 692192, 1034152, 1268992}
	dir := t.TempDir()
	data := filepath.Join(dir, "share")
	db := filepath.Join(data, "opencode", "opencode.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	os.WriteFile(db, opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33_second.db.gz"), 0o600)
	os.WriteFile(db+"-wal", opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33.db-wal.gz"), 0o600)
	wal := opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33_second.db-wal.gz")
	env := "NO_COLOR=1 HOME=" + dir + " XDG_DATA_HOME=" + data + " XDG_STATE_HOME=" + filepath.Join(dir, "state")
	tt := startTmuxEnv(t, 80, 24, dir, env, "watch", "--opencode", "/tmp/rec/p-ocdb")
	screenHas := func(what string, has ...string) {
		t.Helper()
		tt.waitUntil(what, func() bool {
			s := tt.screen()
			for _, w := range has {
				if !strings.Contains(s, w) {
					return false
				}
			}
			return !strings.Contains(s, "not read")
		})
	}
	screenHas("the first session's last plan", "ses_de5f3b9aaffeG9gsuDeenlwgga", "Tasks 3/3")
	f, err := os.OpenFile(db+"-wal", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	from := int64(0)
	// The new session's id, as the header keeps it beside the switch note
	// (a long name is cut in its middle; its end stays).
	second := "QrEkLQwUO"
	for i, want := range [][]string{
		{second, "waiting for a plan"}, // the session made, no plan yet
		{second, "Tasks 0/2", "Read the spec", "Write the lexer"},
		{second, "Tasks 1/2", "✓ Read the spec", "Write the lexer"},
		{second, "Tasks 1/2", "✓ Read the spec", "Write the lexer"}, // "The lexer is next."
	} {
		if _, err := f.WriteAt(wal[from:lengths[i]], from); err != nil {
			t.Fatal(err)
		}
		from = lengths[i]
		screenHas(fmt.Sprintf("the second session's version %d", min(i, 2)), want...)
	}
	tt.run("send-keys", "-t", "t", "q")
	tt.waitUntil("watch to end", func() bool { return strings.Contains(tt.run("display", "-p", "-t", "t", "#{pane_dead}"), "1") })
}

// TestTmuxReplayOpencodeRealDB: `replay` of the database the real
// opencode 1.18.33 wrote plays its session on a terminal: the todowrite
// calls, one panel updated in place to the last version (3/3), the
// warning of the item dropped unfinished.
func TestTmuxReplayOpencodeRealDB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "opencode.db")
	main, err := os.ReadFile("../internal/opencodedb/testdata/opencode-1.18.33_running.db")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(db, main, 0o600)
	os.WriteFile(db+"-wal", opencodetest.Gunzip(t, "../internal/opencodedb/testdata/opencode-1.18.33_running.db-wal.gz"), 0o600)
	tt := startTmuxIn(t, 80, 30, dir, "replay", "--speed", "100", db)
	all := tt.waitScreen("the end of the replay", func(s string) bool { return strings.Contains(s, "end of replay") })
	if n := count(all, "Tasks "); n != 1 {
		t.Errorf("%d panels, want 1 updated in place:\n%s", n, all)
	}
	for _, want := range []string{"todowrite", "! DROPPED without being completed: Add a benchmark", "Tasks 3/3", "✓ Write unit tests"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q:\n%s", want, all)
		}
	}
}
