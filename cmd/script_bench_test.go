package cmd

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// BenchmarkScript is script mode's throughput, the whole command: one op
// is one `TodoWrite '<10 items>'` line, read, run and answered.
func BenchmarkScript(b *testing.B) {
	line := "TodoWrite '" + golden.TenTodos() + "'\n"
	in := []byte(strings.Repeat(line, b.N))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	b.ResetTimer()
	s := Streams{In: bytes.NewReader(in), Out: io.Discard, ErrOut: io.Discard}
	if code := mainWithEnv(nil, s, func(string) string { return "" }); code != 0 {
		b.Fatalf("exit %d", code)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
