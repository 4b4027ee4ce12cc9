package opencodedb

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/todo-shell/todo-shell/internal/plan"
)

const fixture = "../plan/testdata/opencode-1.18.33_export.json"

// MakeDB runs testdata/mkdb.py (python3's sqlite3: SQLite itself) to write
// an opencode database of the real opencode 1.18.33's export.
func makeDB(t testing.TB, args ...string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to make an opencode database with")
	}
	path := filepath.Join(t.TempDir(), FileName)
	out, err := exec.Command(py, append([]string{"testdata/mkdb.py", path}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("mkdb.py: %v\n%s", err, out)
	}
	return path
}

// exportVersions are the versions plan's reader finds in the export.
func exportVersions(t *testing.T) []*plan.Version {
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var p plan.Parser
	var vs []*plan.Version
	emit := func(e plan.Event) {
		if e.Kind == plan.KindVersion {
			vs = append(vs, e.Version)
		}
	}
	// The export is one document over many lines.
	if err := p.Feed(bytesOneLine(b), emit); err != nil {
		t.Fatal(err)
	}
	p.Flush(emit)
	return vs
}

func bytesOneLine(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c == '\n' || c == '\r' {
			c = ' '
		}
		out = append(out, c)
	}
	return out
}

// TestVersionsAsTheExport: the plan read from the database is the plan
// read from `opencode export` of the same session, in rollback and WAL
// mode and with the session's rows only in the -wal file.
func TestVersionsAsTheExport(t *testing.T) {
	t.Parallel()
	want := exportVersions(t)
	if len(want) < 2 {
		t.Fatalf("the fixture has %d versions", len(want))
	}
	tests := []struct {
		args     []string
		sessions int
	}{
		{nil, 1},
		{[]string{"--wal"}, 1},
		{[]string{"--keep-wal", "--sessions", "30"}, 30},
	}
	for _, tt := range tests {
		mode := tt.args
		path := makeDB(t, mode...)
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := db.Sessions("/tmp/rec/p-oc")
		if err != nil || len(ss) != 1 || ss[0].ID != "ses_dede8f183ffeujAsihqtVt37gx" {
			t.Fatalf("%v: sessions %+v, %v", mode, ss, err)
		}
		got, err := db.Versions(ss[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%v: %d versions, want %d", mode, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i].Todos, want[i].Todos) || !got[i].Time.Equal(want[i].Time) || got[i].ToolUseID != want[i].ToolUseID {
				t.Errorf("%v: version %d: %+v\nwant %+v", mode, i+1, got[i], want[i])
			}
		}
		if all, _ := db.Sessions(""); len(all) != tt.sessions {
			t.Errorf("%v: %d sessions in all", mode, len(all))
		}
		db.Close()
	}
}

// TestManyRounds: a session of many rounds, each with a long
// bash output on overflow pages: the plan is every todowrite, and a
// second read (nothing changed) reuses what the first kept.
func TestManyRounds(t *testing.T) {
	t.Parallel()
	path := makeDB(t, "--wal", "--rounds", "50", "--filler", "20000")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		vs, err := db.Versions("ses_dede8f183ffeujAsihqtVt37gx")
		if err != nil {
			t.Fatal(err)
		}
		if n := len(exportVersions(t)) + 50; len(vs) != n {
			t.Fatalf("%d versions, want %d", len(vs), n)
		}
		if last := vs[len(vs)-1]; len(last.Todos) != 10 || last.Todos[9].Status != "in_progress" {
			t.Errorf("last version %+v", last.Todos)
		}
	}
}

// BenchmarkFirstRead is watch --opencode's first read of a large database
// (18 MB: 2,000 sessions, one of 2,000 rounds, each a todowrite and a
// bash call with 3 KB of output): open, find the directory's newest
// session, read its 2,003 versions.
func BenchmarkFirstRead(b *testing.B) {
	path := makeDB(b, "--wal", "--sessions", "2000", "--rounds", "2000", "--filler", "3000", "--directory", "/src/big")
	b.ResetTimer()
	for range b.N {
		db, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ss, err := db.Sessions("/src/big")
		if err != nil || len(ss) != 1 {
			b.Fatal(ss, err)
		}
		vs, err := db.Versions(ss[0].ID)
		if err != nil || len(vs) != 2003 {
			b.Fatal(len(vs), err)
		}
		db.Close()
	}
}

// BenchmarkReread is a read after a change: the database taken anew, the
// parts read before kept.
func BenchmarkReread(b *testing.B) {
	path := makeDB(b, "--wal", "--sessions", "2000", "--rounds", "2000", "--filler", "3000", "--directory", "/src/big")
	db, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ss, _ := db.Sessions("/src/big")
	if _, err := db.Versions(ss[0].ID); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := db.Sessions("/src/big"); err != nil {
			b.Fatal(err)
		}
		if vs, err := db.Versions(ss[0].ID); err != nil || len(vs) != 2003 {
			b.Fatal(len(vs), err)
		}
	}
}

// TestNotPlan: the start of a part's data tells a part that is no
// todowrite call, so its long output is not read; a start that does not
// say has the whole data read.
func TestNotPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		head string
		want bool
	}{
		{`{"type":"text","text":"Hello`, true},
		{`{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","output":"xxxx`, true},
		{`{"type":"tool","tool":"todowrite","callID":"c1"`, false},
		{`{"type":"tool","callID":"c1","state":{"status":"pen`, false}, // the tool not seen yet
		{`{"type":"to`, false},
		{`{"type":"tool","tool":"todo\"write"}`, false}, // an escape: not plain, read it whole
		{``, false},
	}
	for _, tt := range tests {
		if got := notPlan([]byte(tt.head)); got != tt.want {
			t.Errorf("notPlan(%s) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

// TestPartCompletedInPlace: a writer that stays open (python3's sqlite3,
// WAL mode) adds a todowrite call as running and then updates that same
// part row in place to completed, its time_updated unchanged, while the
// database is held open between reads: the read after the update has the
// new version, and so do the reads after more such calls. (A part kept by
// rowid and time_updated alone stayed running for good: the plan froze.)
func TestPartCompletedInPlace(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to write an opencode database with")
	}
	path := filepath.Join(t.TempDir(), FileName)
	cmd := exec.Command(py, "testdata/mkdb.py", path, "--serve")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	answers := bufio.NewReader(out)
	send := func(line string) {
		t.Helper()
		if _, err := in.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := answers.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	send("nothing") // the database is written
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const id = "ses_dede8f183ffeujAsihqtVt37gx"
	read := func() []*plan.Version {
		t.Helper()
		vs, err := db.Versions(id)
		if err != nil {
			t.Fatal(err)
		}
		return vs
	}
	base := len(read())
	for r := 0; r < 3; r++ {
		send("running " + strconv.Itoa(r))
		if vs := read(); len(vs) != base+r {
			t.Fatalf("round %d running: %d versions, want %d (a running call waits)", r, len(vs), base+r)
		}
		send("complete " + strconv.Itoa(r))
		vs := read()
		if len(vs) != base+r+1 {
			t.Fatalf("round %d completed in place: %d versions, want %d", r, len(vs), base+r+1)
		}
		want := "Task 0 of round " + strconv.Itoa(r)
		if last := vs[len(vs)-1]; len(last.Todos) != 10 || last.Todos[0].Content != want || last.Todos[r].Status != "in_progress" {
			t.Errorf("round %d: last version %+v", r, last.Todos)
		}
	}
}
