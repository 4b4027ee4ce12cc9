package opencodedb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
	"github.com/todo-shell/todo-shell/internal/plan"
)

// The databases the real opencode 1.18.33 wrote (testdata/record in
// internal/plan says how): one session of /tmp/rec/p-ocdb whose four
// todowrite calls make a plan that grows, completes items, rewords one
// ("Write tests" → "Write unit tests") and drops one unfinished ("Add a
// benchmark").
const (
	realSession = "ses_de5f3b9aaffeG9gsuDeenlwgga"
	realDir     = "/tmp/rec/p-ocdb"
)

// realWALLengths are the lengths opencode.db-wal had while opencode ran,
// the fake API holding it before its turn N (N = 0…4: N todowrite calls
// done), and when it had exited: each a prefix of the next (nothing was
// checkpointed while it ran), so the running fixture's -wal cut at one of
// them is the file as it was then.
var realWALLengths = []int64{593312, 931152, 1260752, 1610952, 1948792, 2183632}

// realWant is each version of the real session: done/in progress/pending,
// then the change from the one before, as replay reports it.
var realWant = []string{
	"0/1/1 +Write the parser +Write tests >Write the parser",
	"1/1/2 +Update the docs +Add a benchmark >Write tests ✓Write the parser",
	"2/1/1 ~Write tests→Write unit tests >Update the docs ✓Write unit tests",
	"3/0/0 ✓Update the docs !Add a benchmark",
}

// The second session, of the same directory: opencode run again once the
// first had ended (its start checkpointed the -wal into the main file,
// then its writes began the -wal anew, over the old frames): two todowrite
// calls, then text.
const realSession2 = "ses_de5e7f838ffeRykybQrEkLQwUO"

// realWant2 is each version of the second session.
var realWant2 = []string{
	"0/1/1 +Read the spec +Write the lexer >Read the spec",
	"1/1/0 >Write the lexer ✓Read the spec",
}

// realWAL2Lengths are where the second session's -wal had its last commit
// while opencode ran, held before its turn N (N = 0…2), and on exit: its
// first bytes, written over the -wal before it
// (opencode-1.18.33.db-wal.gz), make the file as it was then.
var realWAL2Lengths = []int64{333752, 692192, 1034152, 1268992}

// describe is each version as realWant has it.
func describe(vs []*plan.Version) []string {
	var out []string
	var prev *plan.Version
	for _, v := range vs {
		n := map[string]int{}
		for _, it := range v.Todos {
			n[it.Status]++
		}
		c := plan.Changes(prev, v)
		f := []string{fmt.Sprintf("%d/%d/%d", n["completed"], n["in_progress"], n["pending"])}
		for _, s := range c.Added {
			f = append(f, "+"+s)
		}
		for _, r := range c.Renamed {
			f = append(f, "~"+r.From+"→"+r.To)
		}
		for _, s := range c.Started {
			f = append(f, ">"+s)
		}
		for _, s := range c.Completed {
			f = append(f, "✓"+s)
		}
		for _, s := range c.Dropped {
			f = append(f, "!"+s)
		}
		out = append(out, strings.Join(f, " "))
		prev = v
	}
	return out
}

// TestRealDatabase reads the databases the real opencode 1.18.33 wrote:
// as it left them on exit (every page in the -wal, the main file one page),
// as it was while running after each todowrite (the -wal cut where it
// was), and after opencode's next start checkpointed the -wal into the
// main file and began the -wal anew (one new frame, the 529 frames of the
// run before left behind it under the old salt): the main file alone and
// with that -wal.
func TestRealDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		fixture  string
		wal      bool
		walLen   int64
		versions int
		second   int // versions of the second session (-1: it is not there)
	}{
		{"exited", "opencode-1.18.33_running", true, 0, 4, -1},
		{"running, before the first todowrite", "opencode-1.18.33_running", true, realWALLengths[0], 0, -1},
		{"running, 1 todowrite", "opencode-1.18.33_running", true, realWALLengths[1], 1, -1},
		{"running, 2 todowrites", "opencode-1.18.33_running", true, realWALLengths[2], 2, -1},
		{"running, 3 todowrites", "opencode-1.18.33_running", true, realWALLengths[3], 3, -1},
		{"running, 4 todowrites", "opencode-1.18.33_running", true, realWALLengths[4], 4, -1},
		{"checkpointed, main file alone", "opencode-1.18.33", false, 0, 4, -1},
		{"checkpointed, with the new -wal", "opencode-1.18.33", true, 0, 4, -1},
		// The second session's frames in the -wal (308 under the new
		// salt, 222 of the first run's behind them), the first session's
		// pages in the main file.
		{"second session in the -wal", "opencode-1.18.33_second", true, 0, 4, 2},
		{"second session, main file alone", "opencode-1.18.33_second", false, 0, 4, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(opencodetest.Place(t, "testdata", tt.fixture, tt.wal, tt.walLen))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ss, err := db.Sessions(realDir)
			wantIDs := []string{realSession}
			if tt.second >= 0 {
				wantIDs = []string{realSession2, realSession} // the newest first
			}
			var ids []string
			for _, s := range ss {
				ids = append(ids, s.ID)
			}
			if err != nil || strings.Join(ids, " ") != strings.Join(wantIDs, " ") {
				t.Fatalf("sessions %+v, %v", ss, err)
			}
			if all, err := db.Sessions(""); err != nil || len(all) != len(wantIDs) {
				t.Errorf("all sessions %+v, %v", all, err)
			}
			if tt.second >= 0 {
				vs, err := db.Versions(realSession2)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := describe(vs), realWant2[:tt.second]; strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("second session: versions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			vs, err := db.Versions(realSession)
			if err != nil {
				t.Fatal(err)
			}
			got, want := describe(vs), realWant[:tt.versions]
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("versions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for i, v := range vs {
				if v.N != i+1 || v.Time.IsZero() || v.ToolUseID != fmt.Sprintf("toolu_%04d_0", i+2) {
					t.Errorf("version %d: N %d, time %v, call %q", i+1, v.N, v.Time, v.ToolUseID)
				}
			}
		})
	}
}

// TestRealDatabaseGrows holds the real database open while its -wal
// grows as opencode wrote it (the running fixture's -wal, each held
// length in turn, written in place), then while opencode's next start
// checkpoints it (the main file rewritten, the -wal begun anew over the
// old frames), then while a second run in the same directory starts its
// session in the -wal, over the old frames again: each read has the
// versions written so far.
func TestRealDatabaseGrows(t *testing.T) {
	t.Parallel()
	path := opencodetest.Place(t, "testdata", "opencode-1.18.33_running", true, realWALLengths[0])
	wal := opencodetest.Gunzip(t, filepath.Join("testdata", "opencode-1.18.33_running.db-wal.gz"))
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	check := func(step string, n int, second ...int) {
		t.Helper()
		ss, err := db.Sessions(realDir)
		if err != nil || len(ss) != 1+len(second) {
			t.Fatalf("%s: sessions %+v, %v", step, ss, err)
		}
		for i, id := range []string{realSession, realSession2}[:1+len(second)] {
			want := realWant[:n]
			if i == 1 {
				want = realWant2[:second[0]]
			}
			vs, err := db.Versions(id)
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			if got := describe(vs); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: %s: versions\n%s\nwant\n%s", step, id, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	check("before the first todowrite", 0)
	f, err := os.OpenFile(path+"-wal", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 1; i < len(realWALLengths); i++ {
		from, to := realWALLengths[i-1], realWALLengths[i]
		if _, err := f.WriteAt(wal[from:to], from); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("-wal at %d bytes", to), min(i, 4))
	}
	// opencode's next start: PRAGMA wal_checkpoint(PASSIVE) writes the
	// pages into the main file, then its first write begins the -wal
	// anew (a new salt) over the frames of the run before.
	main, err := os.ReadFile(filepath.Join("testdata", "opencode-1.18.33.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, main, 0o600); err != nil {
		t.Fatal(err)
	}
	check("checkpointed", 4)
	next := opencodetest.Gunzip(t, filepath.Join("testdata", "opencode-1.18.33.db-wal.gz"))
	if len(next) != len(wal) || bytes.Equal(next[:32], wal[:32]) {
		t.Fatalf("the next -wal: %d bytes, header %x", len(next), next[:32])
	}
	if _, err := f.WriteAt(next, 0); err != nil {
		t.Fatal(err)
	}
	check("the -wal begun anew", 4)
	// opencode run again: its start checkpoints that frame, then its
	// writes begin the -wal anew once more, over the frames before.
	if err := os.WriteFile(path, opencodetest.Gunzip(t, filepath.Join("testdata", "opencode-1.18.33_second.db.gz")), 0o600); err != nil {
		t.Fatal(err)
	}
	check("checkpointed again", 4)
	wal2 := opencodetest.Gunzip(t, filepath.Join("testdata", "opencode-1.18.33_second.db-wal.gz"))
	from := int64(0)
	for i, to := range realWAL2Lengths {
		if _, err := f.WriteAt(wal2[from:to], from); err != nil {
			t.Fatal(err)
		}
		from = to
		check(fmt.Sprintf("second run, -wal at %d bytes", to), 4, min(i, 2))
	}
}

// TestPath: the database is where opencode 1.18.33 puts it (its G4):
// $OPENCODE_DB when set, a path or a name in the data directory, none for
// ":memory:"; else opencode.db in the data directory.
func TestPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want string
	}{
		{nil, "/home/u/.local/share/opencode/opencode.db"},
		{map[string]string{"XDG_DATA_HOME": "/d"}, "/d/opencode/opencode.db"},
		{map[string]string{"XDG_DATA_HOME": "rel"}, "/home/u/.local/share/opencode/opencode.db"},
		{map[string]string{"OPENCODE_DB": "/srv/oc/work.db"}, "/srv/oc/work.db"},
		{map[string]string{"OPENCODE_DB": "/srv/oc/../oc/work.db"}, "/srv/oc/work.db"},
		{map[string]string{"OPENCODE_DB": "mine.db", "XDG_DATA_HOME": "/d"}, "/d/opencode/mine.db"},
		{map[string]string{"OPENCODE_DB": ":memory:"}, ""},
	}
	for _, tt := range tests {
		if got := Path(func(k string) string { return tt.env[k] }, "/home/u"); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// BenchmarkRealFirstRead is watch --opencode's first read of the database
// the real opencode 1.18.33 left (every page in its 2.2 MB -wal): open,
// the directory's newest session, its 4 versions.
func BenchmarkRealFirstRead(b *testing.B) {
	path := opencodetest.Place(b, "testdata", "opencode-1.18.33_running", true, 0)
	for b.Loop() {
		db, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, vs, ok, err := db.Newest(realDir); err != nil || !ok || len(vs) != 4 {
			b.Fatal(len(vs), ok, err)
		}
	}
}

// BenchmarkRealTick is one read of watch --opencode after a change, the
// same database: a connection of its own, the parts read before kept.
func BenchmarkRealTick(b *testing.B) {
	path := opencodetest.Place(b, "testdata", "opencode-1.18.33_running", true, 0)
	db, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, _, err := db.Newest(realDir); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, vs, ok, err := db.Newest(realDir); err != nil || !ok || len(vs) != 4 {
			b.Fatal(len(vs), ok, err)
		}
	}
}
