package tools

import (
	"bytes"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	r := NewRedactor("sk-ant-secret-1", "short", "tok-abcdefgh")
	tests := []struct{ in, want string }{
		{"no secret here", "no secret here"},
		{"key=sk-ant-secret-1\n", "key=[REDACTED]\n"},
		{"sk-ant-secret-1sk-ant-secret-1", "[REDACTED][REDACTED]"},
		{"short stays", "short stays"}, // under RedactMinLen: not a secret
		{"a tok-abcdefgh b", "a [REDACTED] b"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if NewRedactor("short", "") != nil {
		t.Error("a Redactor with nothing to redact")
	}
	var none *Redactor
	if none.String("x") != "x" {
		t.Error("nil Redactor changed text")
	}
}

// TestWriterSplitSecret: a secret cut across writes at every point is
// still masked, and nothing else is lost or reordered.
func TestWriterSplitSecret(t *testing.T) {
	r := NewRedactor("sk-ant-secret-1")
	text := "before sk-ant-secret-1 middle sk-ant-secret-1 after s"
	want := "before [REDACTED] middle [REDACTED] after s"
	for cut := 0; cut <= len(text); cut++ {
		for step := 1; step <= 5; step++ {
			var out bytes.Buffer
			w := r.Writer(&out)
			rest := text
			if _, err := w.Write([]byte(rest[:cut])); err != nil {
				t.Fatal(err)
			}
			rest = rest[cut:]
			for len(rest) > 0 {
				n := min(step, len(rest))
				w.Write([]byte(rest[:n]))
				rest = rest[n:]
			}
			w.Flush()
			if out.String() != want {
				t.Fatalf("cut %d step %d: %q", cut, step, out.String())
			}
		}
	}
}

func TestNilWriterPassesThrough(t *testing.T) {
	var out strings.Builder
	var r *Redactor
	w := r.Writer(&out)
	w.Write([]byte("sk-ant-secret-1"))
	w.Flush()
	if out.String() != "sk-ant-secret-1" {
		t.Fatal(out.String())
	}
}
