package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// TestReplayOpencodeRealDB: replay of the database the real opencode
// 1.18.33 wrote (as it left it; cut where its -wal was after two
// todowrites; run again, a second session in the -wal) prints each
// version of the most recently updated session, or of the session
// DB#SESSION names: its counts, the rename and the drop.
func TestReplayOpencodeRealDB(t *testing.T) {
	first := []string{
		"v1  22:49:22  0/2 done, 1 in progress, 1 pending  toolu_0002_0",
		"v2  22:49:24 (+0:02)  1/4 done, 1 in progress, 2 pending  toolu_0003_0",
		"v3  22:49:27 (+0:05)  2/4 done, 1 in progress, 1 pending  toolu_0004_0",
		"~ renamed    Write tests → Write unit tests",
		"v4  22:49:28 (+0:06)  3/3 done, 0 in progress, 0 pending  toolu_0005_0",
		"! DROPPED without being completed: Add a benchmark",
		"4 versions; 1 item dropped without being completed; 0 versions break a rule",
	}
	tests := []struct {
		name    string
		fixture string
		walLen  int
		session string   // "-wal": replay the -wal file
		want    []string // in this order
		not     []string
		err     string
	}{
		{"as opencode left it", "opencode-1.18.33_running", 0, "", append([]string{"#ses_de5f3b9aaffeG9gsuDeenlwgga (opencode database)"}, first...), nil, ""},
		{"while it ran, after 2 todowrites", "opencode-1.18.33_running", 1260752, "", []string{"v1 ", "v2 ", "2 versions; 0 items dropped"}, []string{"v3 "}, ""},
		{"run again: the newest session", "opencode-1.18.33_second", 0, "", []string{"#ses_de5e7f838ffeRykybQrEkLQwUO", "0/2 done, 1 in progress, 1 pending", "1/2 done, 1 in progress, 0 pending", "2 versions; 0 items dropped"}, nil, ""},
		{"run again: the first session named", "opencode-1.18.33_second", 0, "ses_de5f3b9aaffeG9gsuDeenlwgga", first, nil, ""},
		{"a session it does not hold", "opencode-1.18.33_second", 0, "ses_nope", nil, nil, "holds no opencode session ses_nope"},
		// The -wal file named, not the database: one line naming the
		// database, not the log's bytes.
		{"its -wal file", "opencode-1.18.33_running", 0, "-wal", nil, nil, "is the write-ahead log of a SQLite database"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			arg := opencodetest.Place(t, "../internal/opencodedb/testdata", tc.fixture, true, int64(tc.walLen))
			if tc.session == "-wal" {
				want := "todo-shell: replay: " + arg + "-wal is the write-ahead log of a SQLite database, not a transcript: replay " + arg + "\n"
				if r := run(t, "", nil, "replay", "--summary", arg+"-wal"); r.code == 0 || r.stderr != want {
					t.Fatalf("%+v, want the one line %q", r, want)
				}
				return
			}
			if tc.session != "" {
				arg += "#" + tc.session
			}
			r := run(t, "", nil, "replay", "--summary", arg)
			if tc.err != "" {
				if r.code == 0 || !strings.Contains(r.stderr, tc.err) {
					t.Fatalf("%+v, want the error %q", r, tc.err)
				}
				return
			}
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("%+v", r)
			}
			rest := r.stdout
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("no %q after what came before in:\n%s", w, r.stdout)
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.not {
				if strings.Contains(r.stdout, w) {
					t.Errorf("%q in:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// TestOpencodeSession: DB#SESSION names a session of opencode's database
// when DB is a file and DB#SESSION is not.
func TestOpencodeSession(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "opencode.db")
	hashed := filepath.Join(dir, "a#b")
	for _, f := range []string{db, hashed} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ arg, file, session string }{
		{db, db, ""},
		{db + "#ses_1", db, "ses_1"},
		{db + "#a#ses_1", db + "#a#ses_1", ""}, // db#a is no file
		{db + "#", db + "#", ""},
		{hashed, hashed, ""},                 // a file of that name
		{dir + "#ses_1", dir + "#ses_1", ""}, // a directory is no database
		{"#ses_1", "#ses_1", ""},
	} {
		if file, session := opencodeSession(tc.arg); file != tc.file || session != tc.session {
			t.Errorf("%s: %q %q, want %q %q", tc.arg, file, session, tc.file, tc.session)
		}
	}
}

// TestReplayOpencodeSkipsSessionsWithoutPlan: with no session named,
// replay of opencode's database plays the most recently updated session
// that has a todowrite plan, passing over newer ones without (a question
// asked after the work); a database whose sessions keep no plan says so.
func TestReplayOpencodeSkipsSessionsWithoutPlan(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to add a session to the database with")
	}
	db := opencodetest.Place(t, "../internal/opencodedb/testdata", "opencode-1.18.33", true, 0)
	sql := func(stmt string) {
		t.Helper()
		script := "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit(); c.close()"
		if out, err := exec.Command(py, "-c", script, db, stmt).CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	sql("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) " +
		"SELECT 'ses_zzzNewerWithoutPlan', project_id, 'later', directory, 'a question', version, 9000000000000, 9000000000000 FROM session LIMIT 1")
	r := run(t, "", nil, "replay", "--summary", db)
	if r.code != 0 || !strings.Contains(r.stdout, "#ses_de5f3b9aaffeG9gsuDeenlwgga") || !strings.Contains(r.stdout, "4 versions; 1 item dropped") {
		t.Fatalf("newer session without a plan: %+v", r)
	}
	sql("DELETE FROM part WHERE data LIKE '%\"tool\":\"todowrite\"%'")
	r = run(t, "", nil, "replay", "--summary", db)
	if r.code == 0 || !strings.Contains(r.stderr, "holds 2 opencode sessions, none with a todowrite plan") {
		t.Fatalf("no session with a plan: %+v", r)
	}
}
