package sqlitefile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// makeDB is the script the tests make their databases with: python3's
// sqlite3 module (SQLite itself), so the reader is checked against the
// real file format. It writes a table t of rows (id INTEGER PRIMARY KEY,
// k text, n integer, f real, v text) with short and long (overflow)
// values, an index on k, and prints the rows as JSON. Its arguments: the
// path, the journal mode, the number of rows, the page size, and "keep"
// to leave the last transaction in the -wal file (copied while the
// connection is open) and "drop" to delete every third row in it.
const makeDB = `
import json, os, shutil, sqlite3, sys, tempfile
out, mode, rows, psize = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
flags = sys.argv[5:]
work = tempfile.mkdtemp()
path = os.path.join(work, "x.db")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA page_size=%d" % psize)
db.execute("PRAGMA journal_mode=%s" % mode)
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k text NOT NULL, n integer, f real, v text)")
db.execute("CREATE INDEX t_k ON t (k)")
db.execute("ALTER TABLE t ADD extra text")
def val(i):
    size = [0, 10, 400, 3000, 70000][i % 5]
    return ("v%d:" % i) + "x" * size
half = rows // 2 if "keep" in flags else rows
db.execute("BEGIN")
for i in range(half):
    db.execute("INSERT INTO t (id, k, n, f, v) VALUES (?,?,?,?,?)", (i * 3 + 1, "key%d" % (i % 7), i * 1000 - 5000000000 * (i % 2), i / 4, val(i)))
db.execute("COMMIT")
if "keep" in flags:
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("BEGIN")
    for i in range(half, rows):
        db.execute("INSERT INTO t (id, k, n, f, v) VALUES (?,?,?,?,?)", (i * 3 + 1, "key%d" % (i % 7), i * 1000 - 5000000000 * (i % 2), i / 4, val(i)))
    if "drop" in flags:
        db.execute("DELETE FROM t WHERE id % 9 = 1")
    db.execute("UPDATE t SET extra = 'e' WHERE id = 4")
    db.execute("COMMIT")
    shutil.copy(path, out)
    shutil.copy(path + "-wal", out + "-wal")
else:
    db.close()
    shutil.copy(path, out)
db2 = sqlite3.connect("file:%s?mode=ro" % out, uri=True) if "keep" not in flags else sqlite3.connect(path)
res = [list(r) for r in db2.execute("SELECT id, k, n, f, v, extra FROM t ORDER BY id")]
print(json.dumps(res))
`

// row is a row of t as the tests compare it.
type row struct {
	ID    int64
	K     string
	N     int64
	V     string
	Extra string
}

func python(t testing.TB) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to make a SQLite database with")
	}
	return py
}

// build makes a database with makeDB and returns its path and rows.
func build(t testing.TB, mode string, rows, pageSize int, flags ...string) (string, []row) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.db")
	args := append([]string{"-c", makeDB, path, mode, strconv.Itoa(rows), strconv.Itoa(pageSize)}, flags...)
	out, err := exec.Command(python(t), args...).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var raw [][]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	var want []row
	for _, r := range raw {
		extra, _ := r[5].(string)
		want = append(want, row{ID: int64(r[0].(float64)), K: r[1].(string), N: int64(r[2].(float64)), V: r[4].(string), Extra: extra})
	}
	return path, want
}

func readRows(t *testing.T, path string) []row {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := s.Table("t")
	if !ok {
		t.Fatal("no table t")
	}
	if want := []string{"id", "k", "n", "f", "v", "extra"}; !reflect.DeepEqual(tb.Columns, want) {
		t.Fatalf("columns %q, want %q", tb.Columns, want)
	}
	var got []row
	err = tb.Scan(func(rowid int64, r *Record) error {
		id, _ := r.Int(tb.Col("id"))
		n, _ := r.Int(tb.Col("n"))
		got = append(got, row{ID: id, K: r.String(tb.Col("k")), N: n, V: r.String(tb.Col("v")), Extra: r.String(tb.Col("extra"))})
		if id != rowid {
			t.Errorf("id %d, rowid %d", id, rowid)
		}
		return r.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestReadsWhatSQLiteWrote reads every row of databases SQLite wrote, in
// each journal mode, page size and size that changes the b-tree's shape,
// with overflow pages and, in WAL mode, the last transaction only in the
// -wal file (rows added, deleted and updated there).
func TestReadsWhatSQLiteWrote(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		rows     int
		pageSize int
		flags    []string
	}{
		{"empty", "delete", 0, 4096, nil},
		{"one leaf", "delete", 3, 4096, nil},
		{"deep, small pages", "delete", 800, 512, nil},
		{"64 KiB pages", "delete", 300, 65536, nil},
		{"WAL checkpointed", "wal", 200, 4096, nil},
		{"WAL with uncheckpointed frames", "wal", 400, 4096, []string{"keep"}},
		{"WAL frames delete rows", "wal", 400, 1024, []string{"keep", "drop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, want := build(t, tt.mode, tt.rows, tt.pageSize, tt.flags...)
			got := readRows(t, path)
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d: %+v\nwant %+v", i, trim(got[i]), trim(want[i]))
				}
			}
		})
	}
}

func trim(r row) row {
	if len(r.V) > 40 {
		r.V = r.V[:40] + "…"
	}
	return r
}

// TestIndexEqual finds the rows of one key through the index and each row
// by its rowid, as the full scan has them.
func TestIndexEqual(t *testing.T) {
	for _, flags := range [][]string{nil, {"keep", "drop"}} {
		path, want := build(t, "wal", 600, 512, flags...)
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		tb, _ := s.Table("t")
		root := s.Index("t_k")
		if root == 0 {
			t.Fatal("no index t_k")
		}
		for _, key := range []string{"key0", "key3", "key6", "key7", "", "zzz"} {
			var wantIDs, gotIDs []int64
			for _, r := range want {
				if r.K == key {
					wantIDs = append(wantIDs, r.ID)
				}
			}
			err := s.IndexEqual(root, key, func(rowid int64) error {
				found, err := tb.Row(rowid, func(r *Record) error {
					if k := r.String(tb.Col("k")); k != key {
						t.Errorf("row %d has k %q, want %q", rowid, k, key)
					}
					return nil
				})
				if !found {
					t.Errorf("row %d not found", rowid)
				}
				gotIDs = append(gotIDs, rowid)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotIDs, wantIDs) {
				t.Errorf("%v %q: rows %v, want %v", flags, key, gotIDs, wantIDs)
			}
		}
		if found, err := tb.Row(2, func(*Record) error { return nil }); found || err != nil {
			t.Errorf("row 2: found %v, %v", found, err)
		}
		f.Close()
	}
}

// TestWALReadOnFrom reads a WAL that grows between reads, going on from
// where it stopped, and one restarted by a checkpoint.
func TestWALReadOnFrom(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "x.db")
	// A writer that stays open: each line on its input is a statement, and
	// it answers "ok" once it is committed.
	cmd := exec.Command(py, "-u", "-c", `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
for line in sys.stdin:
    db.execute(line)
    print("ok", flush=True)
`, path)
	in, _ := cmd.StdinPipe()
	outR, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	answers := bufio.NewReader(outR)
	exec1 := func(sql string) {
		t.Helper()
		if _, err := in.Write([]byte(sql + "\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := answers.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	exec1("CREATE TABLE t (id INTEGER PRIMARY KEY, v text)")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	count := func() int {
		t.Helper()
		s, err := f.Read()
		if err != nil {
			t.Fatal(err)
		}
		tb, ok := s.Table("t")
		if !ok {
			t.Fatal("no table t")
		}
		n := 0
		if err := tb.Scan(func(int64, *Record) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	steps := []struct {
		sql  string
		want int
	}{
		{"INSERT INTO t (v) VALUES ('a')", 1},
		{"INSERT INTO t (v) VALUES ('b')", 2},
		{"PRAGMA wal_checkpoint(RESTART)", 2},
		{"INSERT INTO t (v) VALUES ('c')", 3},
		{"DELETE FROM t WHERE v = 'a'", 2},
		{"PRAGMA wal_checkpoint(TRUNCATE)", 2},
		{"INSERT INTO t (v) SELECT 'x' || value FROM json_each('[1,2,3,4,5,6,7,8,9,10]')", 12},
	}
	for _, st := range steps {
		exec1(st.sql)
		if got := count(); got != st.want {
			t.Fatalf("after %s: %d rows, want %d", st.sql, got, st.want)
		}
	}
}

// TestRefusesWhatIsNoDatabase: the gate's refusals and damaged files are
// errors.
func TestRefusesWhatIsNoDatabase(t *testing.T) {
	dir := t.TempDir()
	good, _ := build(t, "delete", 50, 1024)
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(dir, "text.db")
	_ = os.WriteFile(text, []byte("hello, not a database at all, not at all, no"+strings.Repeat(".", 100)), 0o600)
	short := filepath.Join(dir, "short.db")
	_ = os.WriteFile(short, []byte("SQLite format 3\x00"), 0o600)
	for _, p := range []string{link, text, short, dir} {
		f, err := Open(p)
		if err == nil {
			_, err = f.Read()
			f.Close()
		}
		if err == nil {
			t.Errorf("%s: no error", filepath.Base(p))
		}
	}
	if _, err := Open(link); !errors.Is(err, readgate.ErrNotRegular) {
		t.Errorf("symlink: %v", err)
	}
	// A -wal file that is a symbolic link is not followed either.
	if err := os.Symlink("/etc/passwd", good+"-wal"); err != nil {
		t.Fatal(err)
	}
	f, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Read(); !errors.Is(err, readgate.ErrNotRegular) {
		t.Errorf("symlinked -wal: %v", err)
	}
}

func TestColumns(t *testing.T) {
	tests := []struct {
		sql   string
		cols  []string
		rowid int
	}{
		{"CREATE TABLE `todo` (\n`session_id` text NOT NULL, `position` integer NOT NULL,\nCONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`))", []string{"session_id", "position"}, -1},
		{`CREATE TABLE t (id INTEGER PRIMARY KEY, "a b" text DEFAULT ('x,y'), [c] real, d NUMERIC(10, 2), UNIQUE (a))`, []string{"id", "a b", "c", "d"}, 0},
		{"CREATE TABLE s (x, `primary` text)", []string{"x", "primary"}, -1},
	}
	for _, tt := range tests {
		cols, rowid := columns(tt.sql)
		if !reflect.DeepEqual(cols, tt.cols) || rowid != tt.rowid {
			t.Errorf("%s: %q %d, want %q %d", tt.sql, cols, rowid, tt.cols, tt.rowid)
		}
	}
}

// TestRecordSizeOnPage: a record's Size is its whole payload and OnPage
// the part on its own page, the same bytes before and after its overflow
// pages are read; a record with no overflow is all on its page.
func TestRecordSizeOnPage(t *testing.T) {
	path, want := build(t, "wal", 10, 1024)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := s.Table("t")
	i := 0
	err = tb.Scan(func(_ int64, r *Record) error {
		before := append([]byte(nil), r.OnPage()...)
		v := r.String(tb.Col("v"))
		if v != want[i].V {
			t.Errorf("row %d: v of %d bytes, want %d", i, len(v), len(want[i].V))
		}
		switch long := len(v) > 1000; {
		case r.Size() < len(v):
			t.Errorf("row %d: size %d, v alone %d", i, r.Size(), len(v))
		case long && len(before) >= r.Size(), !long && len(before) != r.Size():
			t.Errorf("row %d (v of %d bytes): %d bytes on its page, size %d", i, len(v), len(before), r.Size())
		case !bytes.Equal(before, r.OnPage()):
			t.Errorf("row %d: its bytes on its page changed once its overflow was read", i)
		}
		i++
		return r.Err()
	})
	if err != nil || i != len(want) {
		t.Fatalf("%d rows, %v", i, err)
	}
}
