package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkScript is script mode's throughput, the whole command: one op
// is one `TodoWrite '<10 items>'` line, read, run and answered.
func BenchmarkScript(b *testing.B) {
	var items []string
	for i := 0; i < 10; i++ {
		status := "pending"
		switch {
		case i < 4:
			status = "completed"
		case i == 4:
			status = "in_progress"
		}
		items = append(items, fmt.Sprintf(`{"content":"Implement step %d of the plan","activeForm":"Implementing step %d of the plan","status":%q}`, i, i, status))
	}
	line := `TodoWrite '{"todos":[` + strings.Join(items, ",") + `]}'` + "\n"
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
