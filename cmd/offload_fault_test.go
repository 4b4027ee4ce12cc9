package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/offload/offloadtest"
)

// seqOutput is what `seq 1 n` prints.
func seqOutput(t *testing.T, n int) []byte {
	t.Helper()
	out, err := exec.Command("seq", "1", strconv.Itoa(n)).Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// faultPlace is an offload directory and a fallback directory ($TMPDIR) for
// one test, with the file system offload files go through in its runs.
type faultPlace struct {
	primary, tmp, fallback string
	fs                     offload.FS
}

// run is the package's run with offload files going through p.fs.
func (p faultPlace) run(t *testing.T, stdin string, env map[string]string, args ...string) result {
	t.Helper()
	return runHost(t, stdin, host{getenv: func(k string) string { return env[k] }, offloadFS: p.fs}, args...)
}

func newFaultPlace(t *testing.T, fs func(p faultPlace) offload.FS) faultPlace {
	t.Helper()
	d := t.TempDir()
	p := faultPlace{primary: filepath.Join(d, "offload"), tmp: filepath.Join(d, "tmp")}
	os.Mkdir(p.tmp, 0o700)
	t.Setenv("TMPDIR", p.tmp)
	p.fallback = offload.DefaultFallbackDir()
	p.fs = fs(p)
	return p
}

// cmdFaults are the failures tried in each front end: every step, and
// writes failing at the edges of the spool's buffer.
var cmdFaults = []offloadtest.Fault{
	{Step: offloadtest.Dir}, {Step: offloadtest.Create},
	{Step: offloadtest.Write, After: 0}, {Step: offloadtest.Write, After: 65535}, {Step: offloadtest.Write, After: 65536},
	{Step: offloadtest.Write, After: 65537}, {Step: offloadtest.Write, After: 300_000},
	{Step: offloadtest.Sync}, {Step: offloadtest.Close}, {Step: offloadtest.Rename},
}

func faultName(f offloadtest.Fault) string {
	if f.Step == offloadtest.Write {
		return fmt.Sprintf("write-after-%d", f.After)
	}
	return f.Step
}

// onlyFile returns the one .md file in dir.
func onlyFile(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(files) != 1 {
		t.Fatalf("files in %s: %v", dir, files)
	}
	return files[0]
}

// TestFaultScriptOffload: `todo-shell -c 'seq 1 100000'` with the offload
// file failing at each step: the output is whole in the fallback file the
// pointer and the warning name; with the fallback failing too, stdout is
// the command's output byte for byte and a warning says so.
func TestFaultScriptOffload(t *testing.T) {
	want := seqOutput(t, 100000)
	for _, f := range cmdFaults {
		t.Run(faultName(f)+"/fallback", func(t *testing.T) {
			p := newFaultPlace(t, func(p faultPlace) offload.FS {
				f := f
				f.Under = p.primary
				return offloadtest.New(f)
			})
			r := p.run(t, "", nil, "--offload-dir", p.primary, "--session", "s", "-c", "seq 1 100000")
			file := onlyFile(t, filepath.Join(p.fallback, "s"))
			if r.code != 0 || !strings.HasPrefix(r.stdout, offload.Pointer(file)+"\n1\n2\n") {
				t.Fatalf("%d %.200q", r.code, r.stdout)
			}
			if !strings.Contains(r.stderr, "Warning: could not write the offload file "+p.primary) || !strings.Contains(r.stderr, "the output is in "+file+" instead") {
				t.Fatalf("stderr %q", r.stderr)
			}
			if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
				t.Fatalf("fallback file: %d bytes, want %d", len(got), len(want))
			}
		})
		t.Run(faultName(f)+"/both", func(t *testing.T) {
			p := newFaultPlace(t, func(p faultPlace) offload.FS { return offloadtest.New(f) })
			r := p.run(t, "", nil, "--offload-dir", t.TempDir(), "--session", "s", "-c", "seq 1 100000")
			if r.code != 0 || r.stdout != string(want) {
				t.Fatalf("%d: stdout of %d bytes differs from seq's %d", r.code, len(r.stdout), len(want))
			}
			if !strings.Contains(r.stderr, "the output is shown in full") {
				t.Fatalf("stderr %q", r.stderr)
			}
		})
	}
}

type wireResult struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

func serveLines(t *testing.T, stdout string) []wireResult {
	t.Helper()
	var out []wireResult
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var r wireResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %.200q", err, line)
		}
		out = append(out, r)
	}
	return out
}

func bashUse(id, command string) string {
	b, _ := json.Marshal(map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]string{"command": command}})
	return string(b)
}

// TestFaultServeOffload: serve, with the offload file failing at each step:
// the model gets the pointer to the whole output in the fallback file, or,
// when that fails too, the whole output.
func TestFaultServeOffload(t *testing.T) {
	want := seqOutput(t, 100000)
	for _, f := range cmdFaults {
		t.Run(faultName(f)+"/fallback", func(t *testing.T) {
			p := newFaultPlace(t, func(p faultPlace) offload.FS {
				f := f
				f.Under = p.primary
				return offloadtest.New(f)
			})
			r := p.run(t, bashUse("toolu_s", "seq 1 100000")+"\n", nil, "serve", "--offload-dir", p.primary, "--session", "s")
			res := serveLines(t, r.stdout)
			file := filepath.Join(p.fallback, "s", "toolu_s.md")
			if r.code != 0 || len(res) != 1 || res[0].Content != offload.Pointer(file) {
				t.Fatalf("%d %+v", r.code, res)
			}
			if got, _ := os.ReadFile(file); !bytes.Equal(got, want) {
				t.Fatalf("fallback file: %d bytes, want %d", len(got), len(want))
			}
		})
		t.Run(faultName(f)+"/both", func(t *testing.T) {
			p := newFaultPlace(t, func(p faultPlace) offload.FS { return offloadtest.New(f) })
			r := p.run(t, bashUse("toolu_s", "seq 1 100000")+"\n", nil, "serve", "--offload-dir", t.TempDir(), "--session", "s")
			res := serveLines(t, r.stdout)
			if r.code != 0 || len(res) != 1 || res[0].Content != string(want) {
				t.Fatalf("%d: %d results; content differs from seq's output", r.code, len(res))
			}
		})
	}
}

// TestFaultServeHeadAndTail: serve with no place to write and 12 MB of
// output: the model gets the first and last 4 MiB and a line that says how
// many bytes were dropped between them, and why.
func TestFaultServeHeadAndTail(t *testing.T) {
	p := newFaultPlace(t, func(p faultPlace) offload.FS { return offloadtest.New(offloadtest.Fault{Step: offloadtest.Create}) })
	want := seqOutput(t, 1_800_000) // 12,888,895 bytes
	r := p.run(t, bashUse("toolu_h", "seq 1 1800000")+"\n", nil, "serve", "--offload-dir", t.TempDir(), "--session", "s")
	res := serveLines(t, r.stdout)
	total := int64(len(want))
	dropped := total - offload.HeadBytes - offload.TailBytes
	marker := fmt.Sprintf("\n[todo-shell: %d bytes of output dropped here (kept the first %d and the last %d of %d bytes): could not write the offload file ",
		dropped, offload.HeadBytes, offload.TailBytes, total)
	c := res[0].Content
	if !strings.HasPrefix(c, string(want[:offload.HeadBytes])+marker) || !strings.HasSuffix(c, "]\n"+string(want[total-offload.TailBytes:])) {
		t.Fatalf("content of %d bytes is not head + marker + tail", len(c))
	}
}

// TestFaultServeUnsafeID: an id that cannot name a file is still offloaded
// (bounded), to a safe name, and the same id twice gets two files.
func TestFaultServeUnsafeID(t *testing.T) {
	dir := t.TempDir()
	use := bashUse("a/b", "head -c 3000000 /dev/zero | tr '\\0' x")
	r := run(t, use+"\n"+use+"\n", nil, "serve", "--offload-dir", dir, "--session", "s")
	res := serveLines(t, r.stdout)
	if len(res) != 2 || res[0].ToolUseID != "a/b" || res[0].Content == res[1].Content {
		t.Fatalf("%+v", res)
	}
	base := filepath.Join(dir, "s", offload.FileName("a/b"))
	for i, file := range []string{base, strings.TrimSuffix(base, ".md") + "-2.md"} {
		if res[i].Content != offload.Pointer(file) {
			t.Fatalf("result %d: %q", i, res[i].Content)
		}
		if fi, err := os.Stat(file); err != nil || fi.Size() != 3000000 {
			t.Fatalf("%s: %v", file, err)
		}
	}
}

// TestFaultFullDisk runs todo-shell in a child process whose file-size limit
// (RLIMIT_FSIZE) is 1 MiB: `seq 1 500000` (3.4 MB) cannot be written to any
// file, and stdout must still be exactly seq's output.
func TestFaultFullDisk(t *testing.T) {
	want := seqOutput(t, 500000)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultHelperMain$")
	cmd.Dir = dir
	args, _ := json.Marshal([]string{"--offload-dir", filepath.Join(dir, "o"), "--session", "s", "-c", "seq 1 500000"})
	cmd.Env = append(os.Environ(), "TODO_SHELL_HELPER_ARGS="+string(args), "TODO_SHELL_HELPER_FSIZE=1048576", "TMPDIR="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if !bytes.Equal(stdout.Bytes(), want) {
		i := 0
		for i < min(stdout.Len(), len(want)) && stdout.Bytes()[i] == want[i] {
			i++
		}
		t.Fatalf("stdout differs from seq at byte %d (%d bytes, want %d)", i+1, stdout.Len(), len(want))
	}
	if !strings.Contains(stderr.String(), "file too large") || !strings.Contains(stderr.String(), "the output is shown in full") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// TestFaultHelperMain is todo-shell itself when TestFaultFullDisk runs it.
func TestFaultHelperMain(t *testing.T) {
	raw := os.Getenv("TODO_SHELL_HELPER_ARGS")
	if raw == "" {
		t.Skip("run by TestFaultFullDisk")
	}
	var args []string
	json.Unmarshal([]byte(raw), &args)
	if n, _ := strconv.ParseUint(os.Getenv("TODO_SHELL_HELPER_FSIZE"), 10, 64); n > 0 {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	os.Exit(mainWithEnv(args, StdStreams(), os.Getenv))
}

// TestFaultTranscriptLink: a link planted at the transcript's name is
// refused, not followed; a loose session directory is tightened to 0700.
func TestFaultTranscriptLink(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "s")
	os.Mkdir(dir, 0o755)
	os.Chmod(dir, 0o755)
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o600)
	os.Symlink(victim, filepath.Join(dir, "transcript.jsonl"))
	if w, err := openTranscript(root, "s"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		if w != nil {
			w.Close()
		}
		t.Fatalf("opened through a link: %v", err)
	}
	if got, _ := os.ReadFile(victim); string(got) != "precious\n" {
		t.Fatalf("victim holds %q", got)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("session directory mode %v", fi.Mode())
	}
	os.Remove(filepath.Join(dir, "transcript.jsonl"))
	w, err := openTranscript(root, "s")
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}

// TestFaultAgentPrintWarns: `agent -p` whose Bash result cannot go to the
// offload directory: the file is whole in the fallback directory and
// stderr says where.
func TestFaultAgentPrintWarns(t *testing.T) {
	p := newFaultPlace(t, func(p faultPlace) offload.FS {
		return offloadtest.New(offloadtest.Fault{Under: p.primary, Step: offloadtest.Write, After: 65536})
	})
	srv := fakeMessages(t, sse("", "Bash", `{"command":"seq 1 100000"}`), sse("done", "", ""))
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := p.run(t, "", env, "agent", "-p", "count", "--session", "s", "--offload-dir", p.primary, "--allowedTools", "Bash(seq:*)")
	file := filepath.Join(p.fallback, "s", "toolu_x1.md")
	if r.code != 0 || !strings.Contains(r.stderr, "Warning: could not write the offload file "+filepath.Join(p.primary, "s", "toolu_x1.md")+" (write: ") ||
		!strings.Contains(r.stderr, "the output is in "+file+" instead") {
		t.Fatalf("%+v", r)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, seqOutput(t, 100000)) {
		t.Fatalf("fallback file of %d bytes", len(got))
	}
}
