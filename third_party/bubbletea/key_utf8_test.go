package tea

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// chunkReader returns its chunks one read each, then io.EOF.
type chunkReader struct{ chunks [][]byte }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

// TestInputSplitInsideACharacter reads text whose bytes arrive in two reads
// split at every byte offset (a terminal writes un-bracketed bulk input in
// pieces of any size): no character is lost, even when the split falls
// inside a multi-byte one (todo-shell trial finding: 100×日本語 typed by
// tmux gave 299 characters, 150×🚀 lost two).
func TestInputSplitInsideACharacter(t *testing.T) {
	for _, text := range []string{"echo '日本語'", "🚀🚀 x", "aé日🚀", "\x1b日"} {
		b := []byte(text)
		for cut := 0; cut <= len(b); cut++ {
			if text[0] == '\x1b' && cut == 1 {
				continue // an ESC read alone is the Escape key
			}
			r := &chunkReader{chunks: [][]byte{append([]byte(nil), b[:cut]...), append([]byte(nil), b[cut:]...)}}
			msgs := make(chan Msg, 100)
			err := readAnsiInputs(context.Background(), msgs, r)
			if !errors.Is(err, io.EOF) {
				t.Fatalf("%q cut at %d: %v", text, cut, err)
			}
			close(msgs)
			var got strings.Builder
			for m := range msgs {
				switch k := m.(type) {
				case KeyMsg:
					if k.Alt {
						got.WriteString("\x1b")
					}
					if k.Type == KeySpace {
						got.WriteByte(' ')
					} else if k.Type == KeyRunes {
						got.WriteString(string(k.Runes))
					}
				default:
					t.Errorf("%q cut at %d: unexpected %T %v", text, cut, m, m)
				}
			}
			if got.String() != text {
				t.Errorf("%q cut at %d: read %q", text, cut, got.String())
			}
		}
	}
}
