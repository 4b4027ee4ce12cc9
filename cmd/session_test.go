package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
)

// TestResumeScriptModes: a list written in one run comes back with
// --resume and --continue in -c and script mode.
func TestResumeScriptModes(t *testing.T) {
	dir := t.TempDir()
	if r := run(t, "", nil, "--offload-dir", dir, "--session", "r1", "-c", todoLine); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	tests := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"-c --resume", "", []string{"--resume", "r1", "-c", "TodoRead"}},
		{"-c --continue", "", []string{"--continue", "-c", "TodoRead"}},
		{"-c --session continues", "", []string{"--session", "r1", "-c", "TodoRead"}},
		{"script --resume", "TodoRead\n", []string{"--resume", "r1"}},
		{"script --continue", "TodoRead\n", []string{"--continue"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.stdin, nil, append([]string{"--offload-dir", dir}, tc.args...)...)
			if r.code != 0 || !strings.Contains(r.stdout, "[>] Run tests <- Running tests") {
				t.Fatalf("%+v", r)
			}
		})
	}
	// Versions go on from the last one.
	r := run(t, "", nil, "--offload-dir", dir, "--resume", "r1", "-c", strings.Replace(todoLine, "in_progress", "completed", 1))
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "r1", session.JournalFile))
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], `{"version":2,`) {
		t.Fatalf("todos.jsonl:\n%s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "r1", session.TodosFile)); string(b) != `{"todos":[{"content":"Run tests","status":"completed","activeForm":"Running tests"}]}` {
		t.Fatalf("todos.json %s", b)
	}
	var meta session.Meta
	mb, _ := os.ReadFile(filepath.Join(dir, "r1", session.MetaFile))
	if json.Unmarshal(mb, &meta) != nil || meta.Mode != session.ModeScript || meta.ID != "r1" {
		t.Fatalf("session.json %s", mb)
	}
}

func TestResumeErrors(t *testing.T) {
	dir := t.TempDir()
	run(t, "", nil, "--offload-dir", dir, "--session", "ok", "-c", "TodoRead")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"missing", []string{"--resume", "nope", "-c", "TodoRead"}, 1, `todo-shell: no such session "nope" in ` + dir + " (see todo-shell sessions)\n"},
		{"continue in an empty dir", []string{"--offload-dir", t.TempDir(), "--continue", "-c", "TodoRead"}, 1, "no session in"},
		{"both", []string{"--resume", "ok", "--continue", "-c", "TodoRead"}, 2, "cannot be used together"},
		{"with --session", []string{"--resume", "ok", "--session", "x", "-c", "TodoRead"}, 2, "--session cannot be used"},
		{"agent missing", []string{"agent", "-p", "hi", "--resume", "nope"}, 1, `no such session "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}, append([]string{"--offload-dir", dir}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("code %d stderr %q, want %d %q", r.code, r.stderr, tc.code, tc.stderr)
			}
			if tc.code == 1 && strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("not one line: %q", r.stderr)
			}
		})
	}
}

// TestSessionInUse: a second run on a session another holds says which
// process holds it and exits 1, changing nothing.
func TestSessionInUse(t *testing.T) {
	dir := t.TempDir()
	s, err := session.Open(dir, "busy", session.Options{Mode: session.ModeShell})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := run(t, "", nil, "--offload-dir", dir, "--session", "busy", "-c", todoLine)
	want := fmt.Sprintf("todo-shell: session busy is in use by process %d\n", os.Getpid())
	if r.code != 1 || r.stderr != want || r.stdout != "" {
		t.Fatalf("%+v, want stderr %q", r, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "busy", session.JournalFile)); len(b) != 0 {
		t.Fatalf("the second process wrote %s", b)
	}
}

// recordingAPI answers with scripted SSE handlers and keeps every request
// body.
func recordingAPI(t *testing.T) (*httptest.Server, func(...http.HandlerFunc), func() [][]byte) {
	var mu sync.Mutex
	var bodies [][]byte
	var handlers []http.HandlerFunc
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		if len(handlers) == 0 {
			mu.Unlock()
			t.Errorf("unexpected request")
			w.WriteHeader(500)
			return
		}
		h := handlers[0]
		handlers = handlers[1:]
		mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	script := func(hs ...http.HandlerFunc) { mu.Lock(); handlers = hs; bodies = nil; mu.Unlock() }
	got := func() [][]byte { mu.Lock(); defer mu.Unlock(); return bodies }
	return srv, script, got
}

// TestAgentPrintResume: `agent -p --resume` sends the first conversation
// with the new prompt, and the restored list is the model's to read.
func TestAgentPrintResume(t *testing.T) {
	dir := t.TempDir()
	srv, script, bodies := recordingAPI(t)
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	script(
		sse("", "TodoWrite", `{"todos":[{"content":"Count","activeForm":"Counting","status":"in_progress"}]}`),
		sse("first answer", "", ""),
	)
	if r := run(t, "", env, "--offload-dir", dir, "agent", "-p", "first prompt", "--session", "ag"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	script(sse("", "TodoRead", `{}`), sse("second answer", "", ""))
	r := run(t, "", env, "--offload-dir", dir, "agent", "-p", "second prompt", "--resume", "ag")
	if r.code != 0 || r.stdout != "second answer\n" {
		t.Fatalf("%+v", r)
	}
	got := bodies()
	var req struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(got[0], &req); err != nil {
		t.Fatal(err)
	}
	roles := ""
	for _, m := range req.Messages {
		roles += m.Role[:1]
	}
	if roles != "uauau" || !bytes.Contains(got[0], []byte("first prompt")) || !bytes.Contains(got[0], []byte("first answer")) || !bytes.Contains(got[0], []byte("second prompt")) {
		t.Fatalf("second run's first request (%s):\n%s", roles, got[0])
	}
	// TodoRead in the resumed run returned the restored list.
	if !bytes.Contains(got[1], []byte(`{\"todos\":[{\"content\":\"Count\",\"status\":\"in_progress\",\"activeForm\":\"Counting\"}]}`)) {
		t.Fatalf("TodoRead after resume:\n%s", got[1])
	}
	var meta session.Meta
	mb, _ := os.ReadFile(filepath.Join(dir, "ag", session.MetaFile))
	if json.Unmarshal(mb, &meta) != nil || meta.Mode != session.ModeAgent || meta.AgentTurns != 4 {
		t.Fatalf("session.json %s", mb)
	}
}

// TestSessionsAndClean: sessions lists live and old sessions, most recent
// first; clean removes only the old ones that are not live.
func TestSessionsAndClean(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"old", "oldlive", "new"} {
		if r := run(t, "", nil, "--offload-dir", dir, "--session", id, "-c", todoLine); r.code != 0 {
			t.Fatalf("%+v", r)
		}
	}
	os.WriteFile(filepath.Join(dir, "old", "toolu_1.md"), make([]byte, 1500), 0o600)
	live, err := session.Open(dir, "oldlive", session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	age := func(id string, d time.Duration) {
		when := time.Now().Add(-d)
		entries, _ := os.ReadDir(filepath.Join(dir, id))
		for _, e := range entries {
			os.Chtimes(filepath.Join(dir, id, e.Name()), when, when)
		}
		os.Chtimes(filepath.Join(dir, id), when, when)
	}
	age("old", 40*24*time.Hour)
	age("oldlive", 50*24*time.Hour)

	r := run(t, "", nil, "--offload-dir", dir, "sessions", "--json")
	var infos []session.Info
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var info session.Info
		if err := json.Unmarshal([]byte(line), &info); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		infos = append(infos, info)
	}
	if len(infos) != 3 || infos[0].ID != "new" || infos[1].ID != "old" || infos[2].ID != "oldlive" {
		t.Fatalf("order %+v", infos)
	}
	if i := infos[1]; i.Mode != "script" || i.Done != 0 || i.Total != 1 || i.InProgress != "Running tests" || i.Files != 1 || i.FilesBytes != 1500 || i.Live {
		t.Fatalf("old: %+v", i)
	}
	if i := infos[2]; !i.Live || i.PID != os.Getpid() {
		t.Fatalf("oldlive: %+v", i)
	}
	r = run(t, "", nil, "--offload-dir", dir, "sessions")
	if !strings.Contains(r.stdout, "ID") || !strings.Contains(r.stdout, "40d ago") || !strings.Contains(r.stdout, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(r.stdout, "1 (1.5 KB)") {
		t.Fatalf("table:\n%s", r.stdout)
	}

	r = run(t, "", nil, "--offload-dir", dir, "clean", "--older-than", "30d", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would remove old ") || strings.Contains(r.stdout, "oldlive") || !strings.Contains(r.stdout, "1 session, ") {
		t.Fatalf("dry run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "old")); err != nil {
		t.Fatal("dry run removed a session")
	}
	r = run(t, "", nil, "--offload-dir", dir, "clean", "--older-than", "30d")
	if r.code != 0 || !strings.Contains(r.stdout, "removed old ") || !strings.Contains(r.stdout, "1 session removed") {
		t.Fatalf("clean: %+v", r)
	}
	for id, want := range map[string]bool{"old": false, "oldlive": true, "new": true} {
		if _, err := os.Stat(filepath.Join(dir, id)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", id, err == nil, want)
		}
	}
	if r := run(t, "", nil, "clean", "--older-than", "soon"); r.code != 2 {
		t.Fatalf("bad age: %+v", r)
	}
}

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, "1.5d": 36 * time.Hour, "12h": 12 * time.Hour, "0": 0} {
		if got, err := parseAge(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "d", "-1d", "x"} {
		if _, err := parseAge(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestFaultSessionNotSaved: a new session whose directory cannot be made
// still runs, with one warning.
func TestFaultSessionNotSaved(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	os.WriteFile(file, nil, 0o600)
	r := run(t, "", nil, "--offload-dir", file, "-c", todoLine)
	if r.code != 0 || !strings.Contains(r.stdout, "Todo list updated") || !strings.Contains(r.stderr, "warning: the session is not saved") {
		t.Fatalf("%+v", r)
	}
	if r := run(t, "", nil, "--offload-dir", file, "--resume", "x", "-c", "TodoRead"); r.code != 1 {
		t.Fatalf("resume: %+v", r)
	}
}

// TestSessionsAndOffloadsSayTheSameSize: the sessions table gives a
// session's files the size /offloads gives them (the trial saw 23.9 KB in
// one and 23.3 KB in the other: 1000 against 1024).
func TestSessionsAndOffloadsSayTheSameSize(t *testing.T) {
	for _, n := range []int64{999, 1500, 24433, 5 << 20} {
		var b strings.Builder
		writeSessionTable(&b, []session.Info{{ID: "s", Files: 1, FilesBytes: n}}, time.Now(), true, 120)
		if want := "1 (" + render.HumanSize(n) + ")"; !strings.Contains(b.String(), want) {
			t.Errorf("%d bytes: the table lacks %q:\n%s", n, want, b.String())
		}
	}
}
