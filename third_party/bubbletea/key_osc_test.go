package tea

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestOSCAnswerIsNotKeys: a terminal's answer to a query that arrives
// after the program stopped waiting for it (todo-shell's background colour
// query on a loaded machine) is reported as an OSC string, not typed into
// the input as Alt+] and text; Alt+] and keys around it stay keys.
func TestOSCAnswerIsNotKeys(t *testing.T) {
	for _, tc := range []struct {
		name, in, keys string
		osc            int
	}{
		{"ST-ended answer", "a\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\b", "ab", 1},
		{"BEL-ended answer", "\x1b]11;rgb:0/0/0\x07/tty", "/tty", 1},
		{"Alt+]", "\x1b]x", "\x1b]x", 0},
		{"Alt+] then Enter", "\x1b]a\r", "\x1b]a\r", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &chunkReader{chunks: [][]byte{[]byte(tc.in)}}
			msgs := make(chan Msg, 100)
			if err := readAnsiInputs(context.Background(), msgs, r); !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			close(msgs)
			var keys strings.Builder
			osc := 0
			for m := range msgs {
				switch k := m.(type) {
				case KeyMsg:
					if k.Alt {
						keys.WriteString("\x1b")
					}
					switch k.Type {
					case KeyRunes:
						keys.WriteString(string(k.Runes))
					case KeyEnter:
						keys.WriteString("\r")
					}
				case unknownOSCMsg:
					osc++
				default:
					t.Errorf("unexpected %T %v", m, m)
				}
			}
			if keys.String() != tc.keys || osc != tc.osc {
				t.Errorf("keys %q and %d OSC strings, want %q and %d", keys.String(), osc, tc.keys, tc.osc)
			}
		})
	}
}
