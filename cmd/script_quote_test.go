package cmd

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// unclosedQuoteScript is the script of issue 7 item 13: its first line
// opens a quote that never closes, then n more lines.
func unclosedQuoteScript(n int) string {
	var b strings.Builder
	b.WriteString("echo 'this quote never closes\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "echo line %d\n", i)
	}
	return b.String()
}

// TestFaultUnclosedQuoteScript holds issue 7 item 13: 320k lines after an
// unclosed quote are scanned in linear time (19.6 s before), and the error
// names the line where the quote opened. Nothing runs.
func TestFaultUnclosedQuoteScript(t *testing.T) {
	script := "echo first\n" + unclosedQuoteScript(320_000)
	start := time.Now()
	r := run(t, script, nil)
	took := time.Since(start)
	want := "Error: unexpected end of input: the single quote (') opened on line 2 is never closed\n"
	if r.code != 1 || r.stdout != "first\n" || r.stderr != want {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if took > 10*time.Second { // about 0.1 s; -race and load leave room
		t.Fatalf("took %v", took)
	}
}

// TestScriptContinuationLines: commands over several lines still run, as one
// line joined with newlines, and a later unclosed quote names its own line.
func TestScriptContinuationLines(t *testing.T) {
	script := "echo 'a\nb'\necho one \\\ntwo\necho \"x\ny\"\necho ok\necho \"never\n"
	r := run(t, script, nil)
	want := "Error: unexpected end of input: the double quote (\") opened on line 8 is never closed\n"
	if r.code != 1 || r.stdout != "a\nb\none two\nx\ny\nok\n" || r.stderr != want {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, "echo 'a\nb", nil) // the last line has no newline
	if r.code != 1 || r.stderr != "Error: unexpected end of input: the single quote (') opened on line 1 is never closed\n" {
		t.Fatalf("%+v", r)
	}
}

// BenchmarkUnclosedQuoteScript: the script of 320k lines, in
// process (BENCHMARKS.md).
func BenchmarkUnclosedQuoteScript(b *testing.B) {
	script := unclosedQuoteScript(320_000)
	for i := 0; i < b.N; i++ {
		var out, errOut bytes.Buffer
		o := &Options{Streams: Streams{In: strings.NewReader(script), Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" },
			OffloadDir: b.TempDir(), MaxItems: 50, MaxContentLength: 200, MaxInProgress: 1, BashTimeout: time.Minute}
		if err := runScript(o, o.Streams.In); err == nil || !strings.Contains(errOut.String(), "opened on line 1") {
			b.Fatalf("%v %q", err, errOut.String())
		}
	}
	b.SetBytes(int64(len(script)))
}
