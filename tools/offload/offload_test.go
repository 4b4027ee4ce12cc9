package offload

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func resultMessage(id string, content *ResultContent) Message {
	return Message{Role: "user", Content: []Block{
		{Type: "text", Text: "before"},
		{Type: "tool_result", ToolUseID: id, Content: content, IsError: true},
	}}
}

func TestOffloadString(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := strings.Repeat("界a", 600) // 1200 characters, 2400 bytes
	msg := resultMessage("toolu_01", &ResultContent{Text: text})
	res, err := OffloadToFile(msg, "sess-1", dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "sess-1", "toolu_01.md")
	if res.File != want || !filepath.IsAbs(res.File) {
		t.Fatalf("file %q, want %q", res.File, want)
	}
	got, _ := os.ReadFile(res.File)
	if string(got) != text {
		t.Fatal("file does not hold the content as is")
	}
	pointer := "[Tool result offloaded to file: " + want + "]"
	block := res.Message.Content[1]
	if block.Content.Text != pointer || block.Content.Blocks != nil || block.ToolUseID != "toolu_01" || !block.IsError {
		t.Fatalf("new block %+v", block)
	}
	if res.Message.Content[0].Text != "before" {
		t.Fatal("other blocks not carried")
	}
	if wantFreed := 1200 - utf8.RuneCountInString(pointer); res.FreedChars != wantFreed {
		t.Fatalf("freed %d, want %d", res.FreedChars, wantFreed)
	}
	// Wire form: content is a string.
	b, _ := json.Marshal(res.Message)
	if !strings.Contains(string(b), `"content":"[Tool result offloaded to file: `) {
		t.Fatalf("wire form: %s", b)
	}
}

func TestOffloadBlocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var msg Message
	in := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_02","content":[ {"type":"text","text":"hello"} ]}]}`
	if err := json.Unmarshal([]byte(in), &msg); err != nil {
		t.Fatal(err)
	}
	res, err := OffloadToFile(msg, "s", dir)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(res.File)
	if string(got) != `[{"type":"text","text":"hello"}]` {
		t.Fatalf("file %s", got)
	}
	if wantFreed := len(`[{"type":"text","text":"hello"}]`) - len(Pointer(res.File)); res.FreedChars != wantFreed {
		t.Fatalf("freed %d want %d", res.FreedChars, wantFreed)
	}
}

// TestOffloadNeverModifiesInput proves the result shares nothing mutable
// with the input.
func TestOffloadNeverModifiesInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	msg := Message{Role: "user", Content: []Block{
		{Type: "tool_result", ToolUseID: "toolu_03", Content: &ResultContent{Text: strings.Repeat("x", 1500)}},
		{Type: "text", Text: "t", Content: &ResultContent{Blocks: json.RawMessage(`[{"type":"text","text":"a"}]`)}},
	}}
	before, _ := json.Marshal(msg)
	snapshot := deepCopy(msg)
	res, err := OffloadToFile(msg, "s", dir)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(msg)
	if string(before) != string(after) || !reflect.DeepEqual(msg, snapshot) {
		t.Fatal("input message changed")
	}
	// Mutating the output must not reach the input either.
	res.Message.Content[0].ToolUseID = "changed"
	res.Message.Content[1].Content.Blocks[2] = 'X'
	res.Message.Content = append(res.Message.Content[:0], Block{Type: "x"})
	if !reflect.DeepEqual(msg, snapshot) {
		t.Fatal("output shares memory with the input")
	}
}

func deepCopy(m Message) Message {
	b, _ := json.Marshal(m)
	var out Message
	json.Unmarshal(b, &out)
	return out
}

// TestOffloadRepeatedIDKeepsEarlierFile: an id seen twice must not replace
// the earlier file (an earlier pointer would show other output).
func TestOffloadRepeatedIDKeepsEarlierFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var files []string
	for _, text := range []string{"first version, long", "second", "third"} {
		res, err := OffloadToFile(resultMessage("toolu_same", &ResultContent{Text: text}), "s", dir)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, res.File)
	}
	want := []string{"toolu_same.md", "toolu_same-2.md", "toolu_same-3.md"}
	for i, text := range []string{"first version, long", "second", "third"} {
		if files[i] != filepath.Join(dir, "s", want[i]) {
			t.Fatalf("file %d: %s", i, files[i])
		}
		if got, _ := os.ReadFile(files[i]); string(got) != text {
			t.Fatalf("%s holds %q", files[i], got)
		}
	}
}

func TestOffloadRejectsBadSessionBeforeTouchingDisk(t *testing.T) {
	t.Parallel()
	for _, session := range []string{"../x", "a/b", "", "s p", strings.Repeat("a", 129), "t\x00"} {
		w := &recordingWriter{}
		_, err := Offload(resultMessage("toolu_1", &ResultContent{Text: "x"}), session, t.TempDir(), w)
		if err == nil {
			t.Errorf("%q accepted", session)
		}
		if len(w.calls) != 0 {
			t.Errorf("%q touched the disk: %v", session, w.calls)
		}
	}
	if err := CheckID("id", strings.Repeat("a", 128)); err != nil {
		t.Errorf("128 characters rejected: %v", err)
	}
}

// TestOffloadUnsafeIDGetsSafeName: an id that cannot name a file still
// offloads, to sha256-<prefix>.md in the session directory.
func TestOffloadUnsafeIDGetsSafeName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, id := range []string{"a/b", "", "../../etc/passwd", "a.b", strings.Repeat("a", 129), "t\x00", ".."} {
		res, err := OffloadToFile(resultMessage(id, &ResultContent{Text: "x" + id}), "s", dir)
		if err != nil {
			t.Fatalf("%q: %v", id, err)
		}
		if filepath.Dir(res.File) != filepath.Join(dir, "s") || !strings.HasPrefix(filepath.Base(res.File), "sha256-") {
			t.Fatalf("%q: file %s", id, res.File)
		}
		if got, _ := os.ReadFile(res.File); string(got) != "x"+id {
			t.Fatalf("%q: file holds %q", id, got)
		}
		if res.Message.Content[1].ToolUseID != id || res.Message.Content[1].Content.Text != Pointer(res.File) {
			t.Fatalf("%q: block %+v", id, res.Message.Content[1])
		}
	}
	if FileName("a/b") == FileName("a/c") || FileName("toolu_1") != "toolu_1.md" {
		t.Fatal("names")
	}
}

func TestOffloadNeedsOneToolResult(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := OffloadToFile(Message{Role: "user", Content: []Block{{Type: "text", Text: "x"}}}, "s", dir); err == nil {
		t.Error("no tool_result accepted")
	}
	two := Message{Role: "user", Content: []Block{{Type: "tool_result", ToolUseID: "a"}, {Type: "tool_result", ToolUseID: "b"}}}
	if _, err := OffloadToFile(two, "s", dir); err == nil {
		t.Error("two tool_results accepted")
	}
}

type recordingWriter struct {
	calls []string
	fail  error
}

func (w *recordingWriter) MkdirAll(dir string) error {
	w.calls = append(w.calls, "mkdir "+dir)
	return nil
}

func (w *recordingWriter) WriteFile(path string, _ []byte) error {
	w.calls = append(w.calls, "write "+path)
	return w.fail
}

func TestWriteFailureNamesPathAndWraps(t *testing.T) {
	t.Parallel()
	cause := errors.New("no space left on device")
	w := &recordingWriter{fail: cause}
	_, err := Offload(resultMessage("toolu_9", &ResultContent{Text: "x"}), "s", "/tmp/o", w)
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), "/tmp/o/s/toolu_9.md") {
		t.Fatalf("error %v", err)
	}
}

func TestOSWriterPermissionsAndNoPartialFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("modes are POSIX")
	}
	dir := t.TempDir()
	res, err := OffloadToFile(resultMessage("toolu_p", &ResultContent{Text: "data"}), "perm", dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(res.File)
	di, _ := os.Stat(filepath.Dir(res.File))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("file %v dir %v", fi.Mode(), di.Mode())
	}
	// A directory that cannot be written, nor the fallback: an error and
	// no file at all.
	tmpBlocker := filepath.Join(dir, "tmp-blocked")
	os.WriteFile(tmpBlocker, nil, 0o600)
	t.Setenv("TMPDIR", tmpBlocker)
	if os.Geteuid() == 0 {
		// root ignores modes; make the target a file so creation fails instead.
		blocker := filepath.Join(dir, "blocked")
		os.WriteFile(blocker, nil, 0o600)
		_, err = OffloadToFile(resultMessage("toolu_q", &ResultContent{Text: "x"}), "s", blocker)
	} else {
		ro := filepath.Join(dir, "ro")
		os.MkdirAll(filepath.Join(ro, "s"), 0o500)
		_, err = OffloadToFile(resultMessage("toolu_q", &ResultContent{Text: "x"}), "s", ro)
	}
	if err == nil {
		t.Fatal("write into an unwritable place succeeded")
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*", "*", ".tmp-*"))
	if len(entries) != 0 {
		t.Fatalf("partial files left: %v", entries)
	}
}

func TestShouldOffload(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text      string
		threshold int
		want      bool
	}{
		{strings.Repeat("a", 999), 1000, false},
		{strings.Repeat("a", 1000), 1000, true},
		{strings.Repeat("界", 999), 1000, false}, // 2997 bytes, 999 characters
		{strings.Repeat("界", 1000), 1000, true},
		{strings.Repeat("a", 5000), 0, false},
	} {
		if got := ShouldOffload(tt.text, tt.threshold); got != tt.want {
			t.Errorf("%d chars, threshold %d: %v", utf8.RuneCountInString(tt.text), tt.threshold, got)
		}
	}
}

// BenchmarkOffload100KB writes to tmpfs (/dev/shm) when there is one, as
// the target is stated for tmpfs-like storage; elsewhere to the temp dir.
func BenchmarkOffload100KB(b *testing.B) {
	dir := b.TempDir()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		shm, err := os.MkdirTemp("/dev/shm", "offload-bench-")
		if err == nil {
			dir = shm
			b.Cleanup(func() { os.RemoveAll(shm) })
		}
	}
	msg := resultMessage("toolu_bench", &ResultContent{Text: strings.Repeat("0123456789abcdef\n", 100_000/17)})
	b.SetBytes(100_000)
	b.ReportAllocs()
	for b.Loop() {
		res, err := OffloadToFile(msg, "bench", dir)
		if err != nil {
			b.Fatal(err)
		}
		os.Remove(res.File) // an offload never replaces a file: make room for the next
	}
}

// TestOffloadManyTimesSameID: an id seen many times still finds a free name
// at once (no failure after some number of files, no try per earlier file).
func TestOffloadManyTimesSameID(t *testing.T) {
	t.Parallel() // waits on the disk
	dir := t.TempDir()
	w := &countingWriter{}
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		res, err := Offload(resultMessage("toolu_r", &ResultContent{Text: "x"}), "s", dir, w)
		if err != nil || seen[res.File] {
			t.Fatalf("offload %d: %v %s", i, err, res.File)
		}
		seen[res.File] = true
	}
	if w.writes > 200*6 {
		t.Fatalf("%d writes for 200 offloads", w.writes)
	}
}

// countingWriter writes as OSWriter does, but without syncing: the test
// counts writes and names, and 200 syncs took 2 to 4 s of waiting on the
// disk.
type countingWriter struct{ writes int }

func (w *countingWriter) MkdirAll(dir string) error { return OSWriter{}.MkdirAll(dir) }
func (w *countingWriter) WriteFile(path string, data []byte) error {
	w.writes++
	return fsWriter{noSyncFS{}}.WriteFile(path, data)
}

// noSyncFS is the operating system's file system with Sync a no-op.
type noSyncFS struct{ OSFS }

func (noSyncFS) CreateTemp(dir, prefix string) (File, error) {
	f, err := OSFS{}.CreateTemp(dir, prefix)
	if err != nil {
		return nil, err
	}
	return noSyncFile{f}, nil
}

type noSyncFile struct{ File }

func (noSyncFile) Sync() error { return nil }

func TestCleanStaleTemps(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	gone := exec.Command("true")
	gone.Run()
	dead := gone.ProcessState.Pid()
	os.Mkdir(filepath.Join(root, "s"), 0o700)
	files := map[string]bool{ // name → should survive
		fmt.Sprintf(".tmp-%d-toolu_a.md-123", dead):        false,
		fmt.Sprintf(".tmp-%d-toolu_b.md-456", os.Getpid()): true,
		".tmp-toolu_c.md-789":                              true, // no pid: cannot tell
		"toolu_d.md":                                       true,
	}
	for name := range files {
		os.WriteFile(filepath.Join(root, "s", name), []byte("x"), 0o600)
	}
	if n := CleanStaleTemps(root); n != 1 {
		t.Errorf("removed %d, want 1", n)
	}
	for name, survive := range files {
		_, err := os.Stat(filepath.Join(root, "s", name))
		if (err == nil) != survive {
			t.Errorf("%s: exists=%v, want %v", name, err == nil, survive)
		}
	}
}
