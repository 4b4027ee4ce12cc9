package painter

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The background query: OSC 11 asks for the background colour, and the
// primary device attributes request after it (DA1) is answered by every
// terminal, so its answer ends the wait at once on a terminal that knows
// OSC 11 and on one that does not.
const (
	queryBackground = "\x1b]11;?\x07"
	queryDA1        = "\x1b[c"
)

// Background is what a terminal said of its background colour.
type Background struct {
	// Known is true when the terminal answered with a colour.
	Known bool
	// Dark is true for a dark background (and when nothing is known).
	Dark bool
	// Typeahead holds the bytes read while waiting that were not part of
	// an answer: keys typed in the moment the query took, in order.
	Typeahead []byte
}

// QueryBackground asks the input terminal for its background colour and
// waits at most timeout for the answer. It asks nothing when the input is not
// a terminal held in raw mode, or when keys are already waiting to be read
// (they would be read first): those keys, typed before the shell started,
// are returned as Typeahead. On no answer the background is taken as dark.
func (t *Terminal) QueryBackground(timeout time.Duration) Background {
	t.mu.Lock()
	raw := t.cooked != nil
	t.mu.Unlock()
	if t.In == nil || !raw {
		return Background{Dark: true}
	}
	if pending(int(t.In.Fd())) {
		// Typed before raw mode, in cooked mode: Enter came as LF
		// (ICRNL), which read by the shell would be Ctrl+J, a new line
		// in the input. As Typeahead it is Enter.
		return Background{Dark: true, Typeahead: t.Pending()}
	}
	if _, err := t.Out.WriteString(queryBackground + queryDA1); err != nil {
		return Background{Dark: true}
	}
	return readAnswer(int(t.In.Fd()), time.Now().Add(timeout))
}

// pending reports whether bytes can be read from fd without waiting.
func pending(fd int) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0
}

// readAnswer reads fd until the DA1 answer arrives or the deadline passes,
// and reads the background colour out of what came.
func readAnswer(fd int, deadline time.Time) Background {
	var got []byte
	buf := make([]byte, 256)
	for len(got) < 4096 {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 {
			break
		}
		r, err := unix.Read(fd, buf)
		if r <= 0 || err != nil {
			break
		}
		got = append(got, buf[:r]...)
		if _, _, done := splitAnswers(got); done {
			break
		}
	}
	colour, rest, _ := splitAnswers(got)
	b := Background{Dark: true, Typeahead: rest}
	if dark, ok := darkColour(colour); ok {
		b.Known, b.Dark = true, dark
	}
	return b
}

// splitAnswers takes the OSC 11 and DA1 answers out of b: the colour
// answered (empty if none), the bytes that were no answer, and whether the
// DA1 answer has come (nothing more will).
func splitAnswers(b []byte) (colour string, rest []byte, done bool) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0x1b)
		if i < 0 {
			return colour, append(rest, b...), done
		}
		rest = append(rest, b[:i]...)
		b = b[i:]
		switch {
		case bytes.HasPrefix(b, []byte("\x1b]11;")):
			body, n := oscBody(b[len("\x1b]11;"):])
			if n < 0 { // not ended yet
				return colour, rest, done
			}
			colour = body
			b = b[len("\x1b]11;")+n:]
		case bytes.HasPrefix(b, []byte("\x1b[?")):
			end := bytes.IndexFunc(b[3:], func(r rune) bool { return r < '0' || r > ';' })
			if end < 0 {
				return colour, rest, done
			}
			if b[3+end] == 'c' {
				done = true
			}
			b = b[3+end+1:]
		default:
			rest = append(rest, b[0])
			b = b[1:]
		}
	}
	return colour, rest, done
}

// oscBody is the text of an OSC sequence up to its terminator (BEL or ST)
// and the length consumed with the terminator; -1 when it has not ended.
func oscBody(b []byte) (string, int) {
	for i, c := range b {
		switch {
		case c == 0x07:
			return string(b[:i]), i + 1
		case c == 0x1b && i+1 < len(b) && b[i+1] == '\\':
			return string(b[:i]), i + 2
		case c == 0x1b && i+1 == len(b):
			return "", -1
		}
	}
	return "", -1
}

// darkColour reads an XParseColor colour (rgb:RRRR/GGGG/BBBB, one to four hex
// digits each, or #RRGGBB) and reports whether its lightness is under half.
func darkColour(s string) (dark, ok bool) {
	var parts []string
	switch {
	case strings.HasPrefix(s, "rgb:"):
		parts = strings.Split(s[len("rgb:"):], "/")
	case strings.HasPrefix(s, "#") && len(s) == 7:
		parts = []string{s[1:3], s[3:5], s[5:7]}
	}
	if len(parts) != 3 {
		return false, false
	}
	var lo, hi float64 = 1, 0
	for _, p := range parts {
		if len(p) < 1 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		f := float64(v) / float64(uint64(1)<<(4*len(p))-1)
		lo, hi = min(lo, f), max(hi, f)
	}
	return (lo+hi)/2 < 0.5, true
}

// DarkFromEnv guesses the background from COLORFGBG ("fg;bg", set by rxvt,
// Konsole and others) without asking the terminal: bright white or white
// behind the text is light, anything else or nothing is dark.
func DarkFromEnv(getenv func(string) string) bool {
	v := getenv("COLORFGBG")
	if v == "" {
		return true
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return true
	}
	return bg != 7 && bg != 15
}
