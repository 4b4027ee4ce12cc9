package painter

import "io"

// Key is a key the viewers (watch, replay) act on.
type Key uint8

// Keys.
const (
	KeyQuit Key = iota + 1 // q, Ctrl+C, Ctrl+D
	KeyNext                // → or space (or Enter, j, l, n)
	KeyBack                // ← (or h, k, p)
)

// Decode turns bytes read from a terminal in raw mode into keys; other
// bytes are ignored.
func Decode(b []byte) []Key {
	var keys []Key
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case 'q', 'Q', 0x03, 0x04:
			keys = append(keys, KeyQuit)
		case ' ', '\r', '\n', 'l', 'n', 'j':
			keys = append(keys, KeyNext)
		case 'h', 'p', 'k':
			keys = append(keys, KeyBack)
		case 0x1b:
			// CSI or SS3 arrow: ESC [ C / ESC O C (right), D (left).
			if i+2 < len(b) && (b[i+1] == '[' || b[i+1] == 'O') {
				switch b[i+2] {
				case 'C':
					keys = append(keys, KeyNext)
				case 'D':
					keys = append(keys, KeyBack)
				}
				i += 2
			}
		}
	}
	return keys
}

// ReadKeys reads r (a terminal in raw mode) and sends each key on ch until
// r fails, then closes ch. Blocked in read, it costs nothing while no key
// is pressed.
func ReadKeys(r io.Reader, ch chan<- Key) {
	defer close(ch)
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		for _, k := range Decode(buf[:n]) {
			ch <- k
		}
		if err != nil {
			return
		}
	}
}
