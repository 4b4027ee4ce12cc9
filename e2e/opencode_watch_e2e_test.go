package e2e

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestWatchOpencodeLive runs `todo-shell watch --opencode DIR` in a
// pseudo-terminal while a writer that stays open (python3's sqlite3, WAL
// mode, as opencode runs its database) adds todowrite rounds to the
// session of DIR in opencode.db: each round's plan reaches the panel. How
// fast is measured by BenchmarkWatchLagOpencode, not asserted here.
func TestWatchOpencodeLive(t *testing.T) {
	w := startOpencodeWatch(t)
	w.scr.waitFor(t, "✓ Write unit tests", 10*time.Second) // the export's plan
	for r := 0; r < 3; r++ {
		w.round(t, r)
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
