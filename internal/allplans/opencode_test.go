package allplans

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestOpencodePlans finds the live plan of an opencode session in
// opencode's database and follows it as opencode (a writer that stays
// open, WAL mode) adds a round; sessions of other directories without a
// plan add no entry.
func TestOpencodePlans(t *testing.T) {
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
	w, err := New(Config{Home: home, ClaudeDir: filepath.Join(home, ".claude"), CodexDir: filepath.Join(home, ".codex"), OpencodeDir: dir, Now: now})
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
	go func() { _ = w.Run(ctx, func(e []Entry) { sent <- e }) }()
	<-sent
	in.Write([]byte("round 0\n"))
	if _, err := answers.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case e := <-sent:
			if len(e) == 1 && e[0].Version.N == 4 {
				return
			}
		case <-deadline:
			t.Fatal("never saw the round's version")
		}
	}
}
