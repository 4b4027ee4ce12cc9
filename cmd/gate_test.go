package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/follow"
)

// TestFaultSessionsBesideAPlantedLock: `sessions` and `clean` with a session
// whose lock is a symbolic link to /dev/zero: the healthy session is listed,
// the bad file named in one warning, clean says what it skipped and why,
// and --continue takes the healthy session.
func TestFaultSessionsBesideAPlantedLock(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"good", "bad"} {
		if r := run(t, "", nil, "--offload-dir", dir, "--session", id, "-c", todoLine); r.code != 0 {
			t.Fatalf("%+v", r)
		}
	}
	lock := filepath.Join(dir, "bad", "lock")
	os.Remove(lock)
	if err := os.Symlink("/dev/zero", lock); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "--offload-dir", dir, "sessions")
	if r.code != 0 || !strings.Contains(r.stdout, "good") || !strings.Contains(r.stderr, lock+" skipped: not a regular file (a symbolic link)") {
		t.Fatalf("sessions: %+v", r)
	}
	if n := strings.Count(r.stderr, "\n"); n != 1 {
		t.Fatalf("sessions said %d lines on stderr, want one: %q", n, r.stderr)
	}
	r = run(t, "", nil, "--offload-dir", dir, "clean", "--older-than", "0s")
	if r.code != 0 || !strings.Contains(r.stderr, "skipped bad: its lock cannot be taken") || !strings.Contains(r.stderr, "symbolic link") || !strings.Contains(r.stdout, "removed good") {
		t.Fatalf("clean: %+v", r)
	}
}

// TestFaultSessionsNeutraliseFileText: text from session.json reaches the
// terminal neutralised (the MODE column), and --json escapes C1 controls.
func TestFaultSessionsNeutraliseFileText(t *testing.T) {
	dir := t.TempDir()
	if r := run(t, "", nil, "--offload-dir", dir, "--session", "h", "-c", todoLine); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	meta := `{"id":"h","mode":"x\u001b]52;c;aGk=\u0007\u001b[2J\u009b31m","created":"2026-01-01T00:00:00Z"}`
	if err := os.WriteFile(filepath.Join(dir, "h", "session.json"), []byte(meta), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "--offload-dir", dir, "sessions")
	if strings.ContainsAny(r.stdout, "\x1b\x07\u009b") {
		t.Fatalf("the MODE column reached the terminal raw: %q", r.stdout)
	}
	r = run(t, "", nil, "--offload-dir", dir, "sessions", "--json")
	if strings.Contains(r.stdout, "\u009b") || !strings.Contains(r.stdout, `\u009b31m`) {
		t.Fatalf("--json left a C1 control raw: %q", r.stdout)
	}
}

func TestEscapeC1(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"a\u0080b\u009fc": `a\u0080b\u009fc`,
		"é\u00a0\u00c2":   "é\u00a0\u00c2",
		"\u009b":          `\u009b`,
		"tail\xc2":        "tail\xc2",
	} {
		if got := string(escapeC1([]byte(in))); got != want {
			t.Errorf("escapeC1(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContinueSkipsAThrowawayRun: a run that leaves no plan and no
// conversation leaves no session, so --continue comes back to the plan.
func TestContinueSkipsAThrowawayRun(t *testing.T) {
	dir := t.TempDir()
	if r := run(t, "", nil, "--offload-dir", dir, "-c", todoLine); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if r := run(t, "", nil, "--offload-dir", dir, "-c", "true"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d session directories after a plan and a throwaway run, want 1", n)
	}
	r := run(t, "", nil, "--offload-dir", dir, "--continue", "-c", "TodoRead")
	if r.code != 0 || !strings.Contains(r.stdout, "Running tests") {
		t.Fatalf("--continue: %+v", r)
	}
}

// TestFaultReplayNeutralisesFileText: the tool_use id of a version, from the
// file, reaches the terminal neutralised in --summary; a file that is a
// symbolic link to /dev/zero is refused at once, naming why.
func TestFaultReplayNeutralisesFileText(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "todos.jsonl")
	line := `{"version":1,"time":"2026-01-01T00:00:00Z","tool_use_id":"t\u001b]52;c;aGk=\u0007\u001b[2J\u009b31m","todos":[{"content":"a","status":"pending","activeForm":"a"}]}` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "replay", "--summary", file)
	if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07\u009b") || !strings.Contains(r.stdout, "v1 ") {
		t.Fatalf("replay --summary: %+v", r)
	}
	link := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	r = run(t, "", nil, "replay", "--summary", link)
	if r.code == 0 || !strings.Contains(r.stderr, "symbolic link") {
		t.Fatalf("replay of a link to /dev/zero: %+v", r)
	}
}

// TestFaultWatchHeaderNeutralised: the watch header, made of a name on disk
// (a transcript file, a directory), reaches the terminal neutralised.
func TestFaultWatchHeaderNeutralised(t *testing.T) {
	hostile := "x\x1b]52;c;aGk=\x07\x1b[2J\u009b31m\x1b]8;;http://e\x07"
	for _, h := range []string{
		watchHeader(follow.Update{Source: hostile}, "sessions in "+hostile),
		watchHeader(follow.Update{}, "Claude Code sessions of "+hostile),
	} {
		if strings.ContainsAny(h, "\x1b\x07\u009b") {
			t.Fatalf("header %q", h)
		}
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "a"+strings.ReplaceAll(hostile, "/", "")+".jsonl")
	if err := os.WriteFile(name, []byte(`{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The source hands the name on as it is on disk; the header, where it
	// is drawn, neutralises it.
	u, err := follow.Once(follow.Claude{ProjectDir: dir})
	if err != nil || u.Source != filepath.Base(name) {
		t.Fatalf("Once source %q, %v", u.Source, err)
	}
	if h := watchHeader(u, "Claude Code sessions of "+dir); strings.ContainsAny(h, "\x1b\x07\u009b") || !strings.Contains(h, "␛") {
		t.Fatalf("header of the followed source %q", h)
	}
}
