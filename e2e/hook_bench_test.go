package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Whole-process timings of `todo-shell hook` (a Stop) and `todo-shell
// statusline` on a long Claude Code transcript: cold (no state: never
// read before) and after an append of one round (~200 KB) to a transcript
// read before. The transcript comes from internal/hold's generator:
//
//	HOLD_BIG_TRANSCRIPT=/tmp/big.jsonl go test -run TestWriteBigTranscript ./internal/hold
//	TODO_SHELL_BIG_TRANSCRIPT=/tmp/big.jsonl go test -run '^$' -bench 'Process(Hook|StatusLine)' -benchtime 20x -count 5 ./e2e
//
// BenchmarkProcessVersion beside them is the baseline: a process that
// starts and exits.

func bigTranscript(b *testing.B) (path, round string) {
	src := os.Getenv("TODO_SHELL_BIG_TRANSCRIPT")
	if src == "" {
		b.Skip("TODO_SHELL_BIG_TRANSCRIPT not set (see hook_bench_test.go)")
	}
	r, err := os.ReadFile(src + ".round")
	if err != nil {
		b.Fatal(err)
	}
	// A copy, so appends do not grow the original, where Claude Code keeps
	// it: <config>/projects/<dir>/<session>.jsonl, with the session's task
	// files (when the generator wrote some) in <config>/tasks/<session>/.
	config := b.TempDir()
	path = filepath.Join(config, "projects", "-src-app", "s.jsonl")
	os.MkdirAll(filepath.Dir(path), 0o700)
	if files, _ := filepath.Glob(src + ".tasks/*.json"); len(files) > 0 {
		os.MkdirAll(filepath.Join(config, "tasks", "s"), 0o700)
		for _, f := range files {
			data, _ := os.ReadFile(f)
			os.WriteFile(filepath.Join(config, "tasks", "s", filepath.Base(f)), data, 0o600)
		}
	}
	in, _ := os.Open(src)
	out, _ := os.Create(path)
	io.Copy(out, in)
	in.Close()
	out.Close()
	return path, string(r)
}

// runWith runs todo-shell args with stdin, in state.
func runWith(b *testing.B, state, stdin string, args ...string) string {
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "NO_COLOR=1", "TODO_SHELL_PLAN=")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%v: %v", args, err)
	}
	return string(out)
}

func benchProcess(b *testing.B, args []string, stdin func(path string) string, cold bool, check string) {
	benchProcessAfter(b, args, stdin, cold, check, nil, nil)
}

// benchProcessAfter is benchProcess with the state first made by
// another command (warmArgs with warmIn), as the hook makes it for the
// status line.
func benchProcessAfter(b *testing.B, args []string, stdin func(path string) string, cold bool, check string, warmArgs []string, warmIn func(string) string) {
	path, round := bigTranscript(b)
	state := b.TempDir()
	in := stdin(path)
	if !cold {
		if warmArgs != nil {
			runWith(b, state, warmIn(path), warmArgs...)
		} else {
			runWith(b, state, in, args...)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if cold {
			os.RemoveAll(state)
		} else {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			io.WriteString(f, round)
			f.Close()
		}
		b.StartTimer()
		out := runWith(b, state, in, args...)
		if !strings.Contains(out, check) {
			b.Fatalf("%v answered %q", args, out)
		}
	}
}

func stopInputFor(path string) string {
	return `{"session_id":"s","transcript_path":"` + path + `","cwd":"/","prompt_id":"p2","hook_event_name":"Stop","stop_hook_active":false}`
}

func statusInputFor(path string) string {
	return `{"hook_event_name":"Status","session_id":"s","transcript_path":"` + path + `","cwd":"/"}`
}

func BenchmarkProcessHookCold(b *testing.B) {
	benchProcess(b, []string{"hook"}, stopInputFor, true, `"decision":"block"`)
}

func BenchmarkProcessHookAppend(b *testing.B) {
	benchProcess(b, []string{"hook", "--max-blocks", "1000000"}, stopInputFor, false, `"decision":"block"`)
}

func BenchmarkProcessStatusLineCold(b *testing.B) {
	benchProcess(b, []string{"statusline"}, statusInputFor, true, "Tasks ")
}

func BenchmarkProcessStatusLineAppend(b *testing.B) {
	benchProcess(b, []string{"statusline"}, statusInputFor, false, "Tasks ")
}

// BenchmarkProcessStatusLineAppendAfterHook is the status line after an
// append to a transcript the hook has read (its state made by the hook:
// what a session with the hooks in place has).
func BenchmarkProcessStatusLineAppendAfterHook(b *testing.B) {
	benchProcessAfter(b, []string{"statusline"}, statusInputFor, false, "Tasks ", []string{"hook"}, stopInputFor)
}

func BenchmarkProcessVersion(b *testing.B) {
	for b.Loop() {
		if err := exec.Command(binary, "version").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessWcBig is `wc -l` of the transcript: reading all of it
// once, the floor of a read from its start (the Task tools' cold read).
func BenchmarkProcessWcBig(b *testing.B) {
	path, _ := bigTranscript(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := exec.Command("wc", "-l", path).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
