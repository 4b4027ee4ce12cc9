package follow

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// TestOpencodeLive follows an opencode database that does not exist yet,
// then one that opencode's schema is written to and a writer that stays
// open (WAL mode, as opencode) adds todowrite rounds to: each round is a
// new version, read from the -wal file's frames.
func TestOpencodeLive(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to write an opencode database with")
	}
	base := t.TempDir()
	db := filepath.Join(base, "share", "opencode", "opencode.db")
	project := filepath.Join(base, "app")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	done := make(chan error, 1)
	go func() { done <- Follow(ctx, Opencode{DB: db, Dir: project}, func(u Update) { updates <- u }) }()
	next := func(what string, ok func(Update) bool) Update {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case u := <-updates:
				if ok(u) {
					return u
				}
			case <-deadline:
				t.Fatalf("never saw %s", what)
			}
		}
	}
	next("the first update", func(u Update) bool { return u.Version == nil })
	if err := os.MkdirAll(filepath.Dir(db), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "../opencodedb/testdata/mkdb.py", db, "--serve", "--directory", project, "--filler", "9000")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	answers := bufio.NewReader(out)
	u := next("the export's three versions", func(u Update) bool { return u.Version != nil && u.Version.N == 3 })
	if u.Source != "opencode session ses_dede8f183ffeujAsihqtVt37gx" {
		t.Errorf("source %q", u.Source)
	}
	for r := 0; r < 3; r++ {
		if _, err := in.Write([]byte("round " + strconv.Itoa(r) + "\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := answers.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		want := 4 + r
		u := next("version "+strconv.Itoa(want), func(u Update) bool { return u.Version != nil && u.Version.N == want })
		if len(u.Version.Todos) != 10 || u.Version.Todos[r].Status != "in_progress" {
			t.Errorf("round %d: %+v", r, u.Version.Todos)
		}
	}
	if fi, err := os.Stat(db + "-wal"); err != nil || fi.Size() == 0 {
		t.Errorf("the rounds were not in the -wal file: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	u, err = Once(Opencode{DB: db, Dir: project})
	if err != nil || u.Version == nil || u.Version.N != 6 || len(u.New) != 2 {
		t.Fatalf("once: %+v %v", u, err)
	}
}

// TestOpencodeDamagedThenGood: a read of a damaged database is one
// warning that names the file and says what went wrong, beside the last
// good version; the next good read says the warning no longer holds.
func TestOpencodeDamagedThenGood(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := opencodetest.Hostile(t, mkdirAll(t, filepath.Join(dir, "good")), "/src/app", opencodetest.Intact, 0)
	bad := opencodetest.Hostile(t, mkdirAll(t, filepath.Join(dir, "bad")), "/src/app", opencodetest.ZeroOverflow, 0)
	db := filepath.Join(dir, "opencode.db")
	put := func(from string) {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := &ocState{o: Opencode{DB: db, Dir: "/src/app"}}
	defer s.close()
	put(bad)
	u, ok := s.read()
	if !ok || u.Version != nil || len(u.Warnings) != 1 || u.Warnings[0] != "opencode.db damaged: database disk image is malformed" {
		t.Fatalf("damaged: %+v %v", u, ok)
	}
	if _, ok := s.read(); ok {
		t.Fatal("the same failure said twice")
	}
	put(good)
	if u, ok := s.read(); !ok || !u.Recovered || len(u.Warnings) != 0 || u.Version == nil || u.Version.N != 3 {
		t.Fatalf("good: %+v %v", u, ok)
	}
	// Damaged again, its header cut short: said beside the last good
	// version.
	if err := os.WriteFile(db, []byte("SQLite format 3\x00 and then nothing"), 0o600); err != nil {
		t.Fatal(err)
	}
	u, ok = s.read()
	if !ok || u.Version == nil || u.Version.N != 3 || len(u.Warnings) != 1 || !strings.HasPrefix(u.Warnings[0], "opencode.db damaged: ") {
		t.Fatalf("damaged again: %+v %v", u, ok)
	}
}

func mkdirAll(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}
