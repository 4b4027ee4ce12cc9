// Package golden is for tests: it compares bytes an encoder wrote with a
// file of testdata, byte for byte, and holds the inputs tests and
// benchmarks share (the hostile text every encoder's golden files are
// written with, a realistic TodoWrite input).
package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile is text every encoder must write exactly as before: quotes,
// backslashes, controls, C1 controls, line separators, invalid UTF-8.
const Hostile = "say \"hi\" \\ back\nnew\ttab\x01\x1f \u009b[31m \u2028\u2029 \xff\xfe é 🚀 </script>&"

// Check compares got with the file at path, byte for byte. With
// TODO_SHELL_UPDATE_GOLDEN=1 it writes the file instead (the encoders'
// files were written once, by the encoders before they were merged into
// one, and must not change).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if os.Getenv("TODO_SHELL_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: the encoder wrote\n%s\nwant, byte for byte,\n%s", path, got, want)
	}
}

// Encoded is Check of the file testdata/encode/name, where each package's
// encoder goldens are.
func Encoded(t testing.TB, name string, got []byte) {
	t.Helper()
	Check(t, filepath.Join("testdata", "encode", name), got)
}

// TenTodos is a realistic TodoWrite input of 10 items (about 1 KB): four
// completed, one in progress, five pending.
func TenTodos() string {
	items := make([]string, 10)
	for i := range items {
		status := "pending"
		switch {
		case i < 4:
			status = "completed"
		case i == 4:
			status = "in_progress"
		}
		items[i] = fmt.Sprintf(`{"content":"Implement step %d of the plan","status":%q,"activeForm":"Implementing step %d of the plan"}`, i, status, i)
	}
	return `{"todos":[` + strings.Join(items, ",") + `]}`
}
