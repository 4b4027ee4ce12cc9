// Redacting removes secret values (API keys, tokens) from tool output
// before it goes anywhere: to the model, the screen, a transcript or an
// offload file. It is the second line of defence behind keeping the
// secrets out of the tools' reach in the first place.

package tools

import (
	"bytes"
	"io"
	"sort"
	"strings"
)

// RedactMask replaces each secret value.
const RedactMask = "[REDACTED]"

// RedactMinLen is the shortest value redacted: a shorter one would match
// ordinary text everywhere (and is no real key).
const RedactMinLen = 8

// Redactor knows the values to remove. The zero value and nil remove
// nothing.
type Redactor struct {
	secrets [][]byte // longest first, so that one containing another is masked whole
	longest int
}

// New returns a Redactor for values; values shorter than RedactMinLen are
// ignored. It returns nil when nothing is left to redact.
func NewRedactor(values ...string) *Redactor {
	r := &Redactor{}
	seen := map[string]bool{}
	for _, v := range values {
		if len(v) < RedactMinLen || seen[v] {
			continue
		}
		seen[v] = true
		r.secrets = append(r.secrets, []byte(v))
		r.longest = max(r.longest, len(v))
	}
	if len(r.secrets) == 0 {
		return nil
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// String returns s with every secret replaced by RedactMask.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, v := range r.secrets {
		if strings.Contains(s, string(v)) {
			s = strings.ReplaceAll(s, string(v), RedactMask)
		}
	}
	return s
}

// Bytes returns b with every secret replaced by RedactMask (b itself when it
// holds none).
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	for _, v := range r.secrets {
		if bytes.Contains(b, v) {
			b = bytes.ReplaceAll(b, v, []byte(RedactMask))
		}
	}
	return b
}

// RedactWriter returns a writer that passes what is written on to w with every
// secret replaced, even one split across writes: it holds back the end of
// each write that could begin a secret until the next write or Flush.
// A nil Redactor returns w as it is, with a Flush that does nothing.
func (r *Redactor) Writer(w io.Writer) *RedactWriter {
	return &RedactWriter{r: r, w: w}
}

// RedactWriter is a redacting writer; call Flush when the output ends.
type RedactWriter struct {
	r       *Redactor
	w       io.Writer
	pending []byte
}

// Write redacts p (with what was held back) and writes all of it but a
// possible beginning of a secret at its end. It reports len(p) written
// when the underlying write succeeds.
func (x *RedactWriter) Write(p []byte) (int, error) {
	if x.r == nil {
		return x.w.Write(p)
	}
	buf := x.r.Bytes(append(x.pending, p...))
	keep := x.r.heldBack(buf)
	out := buf[:len(buf)-keep]
	x.pending = append([]byte(nil), buf[len(buf)-keep:]...)
	if len(out) > 0 {
		if _, err := x.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what was held back.
func (x *RedactWriter) Flush() error {
	if len(x.pending) == 0 {
		return nil
	}
	p := x.pending
	x.pending = nil
	_, err := x.w.Write(p)
	return err
}

// heldBack is the length of the longest end of b that is the beginning of
// a secret (shorter than the secret).
func (r *Redactor) heldBack(b []byte) int {
	for k := min(len(b), r.longest-1); k > 0; k-- {
		tail := b[len(b)-k:]
		for _, v := range r.secrets {
			if len(v) > k && bytes.HasPrefix(v, tail) {
				return k
			}
		}
	}
	return 0
}
