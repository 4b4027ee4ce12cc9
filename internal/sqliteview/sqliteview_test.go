package sqliteview

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
	"github.com/todo-shell/todo-shell/internal/readgate"
)

// python3 returns the path of python3 (its sqlite3 module is SQLite
// itself, writing as any program does), or skips the test.
func python3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to write a database with")
	}
	return py
}

// count reads how many rows t holds and checks each row's check column
// (the sum of all ids up to it): a read torn by a checkpoint would see rows
// that do not add up.
func count(c *sqlite3.Conn) (int64, error) {
	s, _, err := c.Prepare(`SELECT id, sum FROM t ORDER BY id`)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	var n, total int64
	for s.Step() {
		id, sum := s.ColumnInt64(0), s.ColumnInt64(1)
		total += id
		n++
		if id != n || sum != total {
			return 0, fmt.Errorf("row %d: id %d sum %d, want %d and %d", n, id, sum, n, total)
		}
	}
	return n, s.Err()
}

// writerScript commits rows to t in WAL mode, 50 at a time, each batch
// when told to on standard input, and every 7 commits runs the checkpoint
// that most needs readers out of its way (TRUNCATE: every frame into the
// database, then the -wal cut to nothing) with no busy timeout at all; it
// prints "busy" for a checkpoint a reader held back and any error,
// "batch" after each batch and "done N" at the end.
const writerScript = `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA busy_timeout=0")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, sum INTEGER, pad TEXT)")
total, n = 0, int(sys.argv[2])
print("ready", flush=True)
for i in range(1, n + 1):
    if i % 50 == 1:
        sys.stdin.readline()
    try:
        total += i
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?, ?, ?)", (i, total, "x" * (i % 300)))
        db.execute("COMMIT")
        if i % 7 == 0:
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                print("busy", i, flush=True)
    except sqlite3.Error as e:
        print("error", i, e, flush=True)
    if i % 50 == 0:
        print("batch", flush=True)
print("done", n, flush=True)
`

// TestWriterNeverWaitsForUs: a writer that stays open (python3's sqlite3,
// WAL mode, no busy timeout) commits 500 rows in 10 batches and
// checkpoints with TRUNCATE every 7 commits while reads go on without a
// pause: the writer never
// gets SQLITE_BUSY nor has a checkpoint held back, and every read sees a
// whole committed state (the rows add up), the checkpoints racing it
// included.
func TestWriterNeverWaitsForUs(t *testing.T) {
	t.Parallel()
	py := python3(t)
	path := filepath.Join(t.TempDir(), "w.db")
	cmd := exec.Command(py, "-c", writerScript, path, "500")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("writer: %q", lines.Text())
	}
	// The writer's batches, each begun as reads begin: every batch has
	// reads beside it.
	said := make(chan string, 64)
	go func() {
		for lines.Scan() {
			said <- lines.Text()
		}
		close(said)
	}()
	read := func() (int64, error) {
		var n int64
		err := Read(context.Background(), path, Limits{}, func(c *sqlite3.Conn) (err error) {
			n, err = count(c)
			return err
		})
		return n, err
	}
	reads, last := 0, int64(0)
	var disturbed []string
	end := ""
	batches := 10
	if raceOn {
		batches = 2 // then the writer goes on alone
	}
	for batch := 0; batch < 10 && said != nil; batch++ {
		if batch >= batches {
			_, _ = in.Write([]byte("go\n"))
			continue
		}
		_, _ = in.Write([]byte("go\n"))
		for over := false; !over; {
			n, err := read()
			switch {
			case errors.Is(err, ErrChanging):
			case err != nil && strings.Contains(err.Error(), "no such table"): // before the writer made it
			case err != nil:
				t.Fatalf("read %d: %v", reads, err)
			case n < last:
				t.Fatalf("read %d: %d rows after %d", reads, n, last)
			default:
				reads, last = reads+1, n
			}
			for more := true; more; {
				select {
				case l, ok := <-said:
					switch {
					case !ok:
						// The writer is done (its last batch, "done"
						// and the end of its output can all come in one
						// drain). A closed channel is always ready: read
						// it no more.
						said, over = nil, true
						if end == "" {
							end = "(the writer ended)"
						}
					case l == "batch":
						over = true
					case strings.HasPrefix(l, "done"):
						end = l
					default:
						disturbed = append(disturbed, l)
					}
				default:
					more = false
				}
			}
		}
	}
	for end == "" {
		l, ok := <-said
		switch {
		case !ok:
			end = "(the writer ended)"
		case strings.HasPrefix(l, "done"):
			end = l
		case l != "batch":
			disturbed = append(disturbed, l)
		}
	}
	if end != "done 500" || len(disturbed) > 0 {
		t.Fatalf("the writer was disturbed:\n%s\n%s", strings.Join(disturbed, "\n"), end)
	}
	if n, err := read(); err != nil || n != 500 {
		t.Fatalf("after the writer: %d rows, %v", n, err)
	}
	t.Logf("%d reads beside 500 commits and 71 TRUNCATE checkpoints", reads)
}

// TestNothingWritten: a read of a database in WAL mode whose -wal is
// there but no -shm (the files copied, or their writer gone) creates no
// file and changes none: not the -shm, not a journal, not a byte or a
// time of the database or its -wal.
func TestNothingWritten(t *testing.T) {
	path := opencodetest.Place(t, "../opencodedb/testdata", "opencode-1.18.33_running", true, 0)
	dir := filepath.Dir(path)
	snap := func() map[string]string {
		out := map[string]string{}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			fi, _ := e.Info()
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			st := fi.Sys().(*syscall.Stat_t)
			out[e.Name()] = fmt.Sprintf("%d %v %d.%d %x", fi.Size(), fi.Mode(), st.Ctim.Sec, st.Ctim.Nsec, b[:min(len(b), 64)])
		}
		return out
	}
	before := snap()
	var sessions int64
	if err := Read(context.Background(), path, Limits{}, func(c *sqlite3.Conn) error {
		s, _, err := c.Prepare(`SELECT count(*) FROM session`)
		if err != nil {
			return err
		}
		defer s.Close()
		s.Step()
		sessions = s.ColumnInt64(0)
		return s.Err()
	}); err != nil || sessions != 1 {
		t.Fatalf("%d sessions, %v", sessions, err)
	}
	after := snap()
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Fatalf("the directory changed:\nbefore %v\nafter  %v", before, after)
	}
}

// TestRefused: what the gate refuses, and files that are no database,
// give one error naming the file, at once.
func TestRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := opencodetest.Place(t, "../opencodedb/testdata", "opencode-1.18.33", false, 0)
	link := filepath.Join(dir, "link.db")
	_ = os.Symlink(good, link)
	fifo := filepath.Join(dir, "fifo.db")
	_ = syscall.Mkfifo(fifo, 0o600)
	text := filepath.Join(dir, "text.db")
	_ = os.WriteFile(text, bytes.Repeat([]byte("not a database "), 100), 0o600)
	short := filepath.Join(dir, "short.db")
	_ = os.WriteFile(short, []byte("SQLite format 3\x00"), 0o600)
	walLink := filepath.Join(dir, "wallink.db")
	b, _ := os.ReadFile(good)
	_ = os.WriteFile(walLink, b, 0o600)
	_ = os.Symlink("/dev/zero", walLink+"-wal")
	walFifo := filepath.Join(dir, "walfifo.db")
	_ = os.WriteFile(walFifo, b, 0o600)
	_ = syscall.Mkfifo(walFifo+"-wal", 0o600)
	bigWAL := filepath.Join(dir, "bigwal.db")
	_ = os.WriteFile(bigWAL, b, 0o600)
	if f, err := os.Create(bigWAL + "-wal"); err == nil {
		_ = f.Truncate(300 << 20) // sparse
		_ = f.Close()
	}
	tests := []struct {
		path string
		is   error
		says string
	}{
		{link, readgate.ErrNotRegular, "a symbolic link"},
		{fifo, readgate.ErrNotRegular, "a FIFO"},
		{"/dev/zero", readgate.ErrNotRegular, "a device"},
		{dir, readgate.ErrNotRegular, "a directory"},
		{text, ErrCorrupt, "file is not a database"},
		{walLink, readgate.ErrNotRegular, "a symbolic link"},
		{walFifo, readgate.ErrNotRegular, "a FIFO"},
		{bigWAL, readgate.ErrTooLarge, "at most 268435456"},
		{filepath.Join(dir, "none.db"), os.ErrNotExist, "no such file"},
	}
	for _, tt := range tests {
		start := time.Now()
		err := Read(context.Background(), tt.path, Limits{}, func(c *sqlite3.Conn) error {
			return c.Exec(`SELECT * FROM sqlite_schema`)
		})
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), filepath.Base(tt.path)) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %v saying %q", filepath.Base(tt.path), err, tt.is, tt.says)
		}
		if d := time.Since(start); d > 2*time.Second && !raceOn {
			t.Errorf("%s: %v", filepath.Base(tt.path), d)
		}
	}
	// A database cut short: SQLite finds it damaged, or finds nothing.
	if err := Read(context.Background(), short, Limits{}, func(c *sqlite3.Conn) error {
		return c.Exec(`SELECT * FROM session`)
	}); err == nil || !strings.Contains(err.Error(), "short.db") {
		t.Errorf("short: %v", err)
	}
}

// TestLimits: a read over its memory, its longest value or its time is
// stopped, with an error saying which.
func TestLimits(t *testing.T) {
	t.Parallel()
	path := opencodetest.Place(t, "../opencodedb/testdata", "opencode-1.18.33", false, 0)
	tests := []struct {
		name  string
		lim   Limits
		query string
		is    error
	}{
		{"a value over MaxValue", Limits{MaxValue: 1000}, `SELECT group_concat(data) FROM part`, readgate.ErrTooLarge},
		{"memory", Limits{MaxMemory: 8 << 20, MaxValue: 64 << 20}, `SELECT length(randomblob(30000000))`, readgate.ErrTooLarge},
		{"time", Limits{Timeout: 100 * time.Millisecond}, `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT count(*) FROM r`, ErrTimeout},
	}
	for _, tt := range tests {
		start := time.Now()
		err := Read(context.Background(), path, tt.lim, func(c *sqlite3.Conn) error {
			s, _, err := c.Prepare(tt.query)
			if err != nil {
				return err
			}
			defer s.Close()
			for s.Step() {
			}
			return s.Err()
		})
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.is)
		}
		if d := time.Since(start); d > 3*time.Second && !raceOn {
			t.Errorf("%s: %v", tt.name, d)
		}
	}
}
