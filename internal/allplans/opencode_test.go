package allplans

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/opencodedb/opencodetest"
)

// TestOpencodePlans finds the live plan of an opencode session in
// opencode's database and follows it as opencode (a writer that stays
// open, WAL mode) adds a round; sessions of other directories without a
// plan add no entry.
func TestOpencodePlans(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to write an opencode database with")
	}
	home := t.TempDir()
	dir := filepath.Join(home, ".local", "share", "opencode")
	os.MkdirAll(dir, 0o700)
	cmd := exec.Command(py, "../opencodedb/testdata/mkdb.py", filepath.Join(dir, "opencode.db"), "--serve", "--sessions", "4", "--directory", "/src/oc")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close(); _ = cmd.Wait() }()
	answers := bufio.NewReader(out)
	// The database is written when the writer answers its first line.
	in.Write([]byte("nothing\n"))
	if _, err := answers.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	// The fixture's session was last updated at 1795599842565 ms.
	now := func() time.Time { return time.UnixMilli(1795599842565).Add(time.Minute) }
	w, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), OpencodeDB: filepath.Join(dir, "opencode.db"), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := w.Entries()
	if len(got) != 1 || got[0].Agent != "opencode" || got[0].Project != "/src/oc" || got[0].Version.N != 3 {
		t.Fatalf("entries %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan []Entry, 10)
	go func() { _ = w.Run(ctx, func(e []Entry, _ string) { sent <- e }) }()
	<-sent
	send := func(line string) {
		t.Helper()
		in.Write([]byte(line + "\n"))
		if _, err := answers.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	waitN := func(n int, first string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case e := <-sent:
				if len(e) == 1 && e[0].Version.N == n {
					if got := e[0].Version.Todos[0].Content; got != first {
						t.Fatalf("version %d starts %q, want %q", n, got, first)
					}
					return
				}
			case <-deadline:
				t.Fatalf("never saw version %d", n)
			}
		}
	}
	send("round 0")
	waitN(4, "Task 0 of round 0")
	// A call added running, then its row updated in place to completed
	// (its time_updated unchanged): the entry has the new version.
	send("running 1")
	send("complete 1")
	waitN(5, "Task 0 of round 1")
}

// TestOpencodeRealDB follows the database the real opencode 1.18.33 wrote
// (../opencodedb/testdata), kept where $OPENCODE_DB put it (work.db): its
// -wal grown in place as opencode wrote it, from one todowrite to four,
// each a new version of the one entry; the last has the dropped item gone.
func TestOpencodeRealDB(t *testing.T) {
	t.Parallel()
	// The lengths the -wal had after each todowrite, then on exit
	// (../opencodedb/real_test.go).
	lengths := []int64{931152, 1260752, 1610952, 1948792, 2183632}
	home := t.TempDir()
	db := filepath.Join(home, "oc", "work.db")
	os.MkdirAll(filepath.Dir(db), 0o700)
	main, err := os.ReadFile("../opencodedb/testdata/opencode-1.18.33_running.db")
	if err != nil {
		t.Fatal(err)
	}
	wal := opencodetest.Gunzip(t, "../opencodedb/testdata/opencode-1.18.33_running.db-wal.gz")
	os.WriteFile(db, main, 0o600)
	os.WriteFile(db+"-wal", wal[:lengths[0]], 0o600)
	// The session was last updated at 1795733371559 ms.
	now := func() time.Time { return time.UnixMilli(1795733371559).Add(time.Minute) }
	w, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), OpencodeDB: db, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got := w.Entries(); len(got) != 1 || got[0].Agent != "opencode" || got[0].Project != "/tmp/rec/p-ocdb" || got[0].Version.N != 1 {
		t.Fatalf("entries %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := make(chan []Entry, 10)
	go func() { _ = w.Run(ctx, func(e []Entry, _ string) { sent <- e }) }()
	<-sent
	f, err := os.OpenFile(db+"-wal", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 1; i < 4; i++ {
		if _, err := f.WriteAt(wal[lengths[i-1]:lengths[i]], lengths[i-1]); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(10 * time.Second)
	wait:
		for {
			select {
			case e := <-sent:
				if len(e) == 1 && e[0].Version.N == i+1 {
					break wait
				}
			case <-deadline:
				t.Fatalf("never saw version %d", i+1)
			}
		}
	}
	last := w.Entries()[0].Version
	var contents []string
	for _, it := range last.Todos {
		contents = append(contents, it.Status+" "+it.Content)
	}
	if got := strings.Join(contents, ", "); got != "completed Write the parser, completed Write unit tests, completed Update the docs" {
		t.Errorf("last version: %s", got)
	}
}

// TestOpencodeDamagedIsSaid: watch --all over a damaged opencode
// database (an overflow page number 0) says why it is not read, from the
// start; once opencode's database is whole again, the warning goes and
// its plan is there.
func TestOpencodeDamagedIsSaid(t *testing.T) {
	t.Parallel()
	good, err := os.ReadFile(opencodetest.Hostile(t, t.TempDir(), "/src/app", opencodetest.Intact, 0))
	if err != nil {
		t.Fatal(err)
	}
	bad := opencodetest.Hostile(t, filepath.Join(t.TempDir()), "/src/app", opencodetest.ZeroOverflow, 0)
	home := filepath.Dir(bad)
	now := func() time.Time { return time.UnixMilli(1795599842565).Add(time.Minute) }
	w, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), OpencodeDB: bad, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const want = "opencode.db damaged: database disk image is malformed"
	if got := w.Entries(); len(got) != 0 || w.Warning() != want {
		t.Fatalf("entries %+v, warning %q; want none and %q", got, w.Warning(), want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type sent struct {
		entries []Entry
		warning string
	}
	ch := make(chan sent, 10)
	go func() { _ = w.Run(ctx, func(e []Entry, warning string) { ch <- sent{e, warning} }) }()
	if s := <-ch; s.warning != want {
		t.Fatalf("first sent warning %q, want %q", s.warning, want)
	}
	// Whole again (written elsewhere, then renamed over it: no half-written
	// file is read).
	tmp := bad + ".new"
	if err := os.WriteFile(tmp, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, bad); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case s := <-ch:
			if s.warning == "" && len(s.entries) == 1 && s.entries[0].Agent == "opencode" {
				return
			}
		case <-deadline:
			t.Fatal("the warning never went")
		}
	}
}
