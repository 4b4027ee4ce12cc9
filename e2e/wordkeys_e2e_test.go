package e2e

import (
	"testing"
	"time"
)

// TestWordMotionsAsReadline: the word keys of bash's readline edit the
// input, sent as the byte sequences terminals send for them (ESC b, ESC f,
// ESC d, ESC DEL, ^W, Ctrl+Left, Ctrl+Right); none of them types text.
func TestWordMotionsAsReadline(t *testing.T) {
	t.Parallel()
	const line = "echo one two three"
	tests := []struct {
		name string
		keys []string // each in a write of its own
		want string   // the output of the edited line
	}{
		{"Alt+b back a word", []string{"\x1bb", "\x1bb", "X"}, "one Xtwo three"},
		{"Alt+f forward a word", []string{"\x01", "\x1bf", "\x1bf", "X"}, "oneX two three"},
		{"Alt+d deletes the word after", []string{"\x1bb", "\x1bb", "\x1bd", "X"}, "one X three"},
		{"Alt+Backspace deletes the word before", []string{"\x1b\x7f", "X"}, "one two X"},
		{"Ctrl+W deletes the word before", []string{"\x17", "X"}, "one two X"},
		{"Ctrl+Left back a word", []string{"\x1b[1;5D", "\x1b[1;5D", "X"}, "one Xtwo three"},
		{"Ctrl+Right forward a word", []string{"\x01", "\x1b[1;5C", "\x1b[1;5C", "X"}, "oneX two three"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := startREPL(t, 24, 100)
			sh.send(line)
			sh.waitFor(t, line, 5*time.Second)
			for _, k := range tc.keys {
				sh.send(k)
			}
			sh.send("\r")
			sh.output(t, tc.want, 5*time.Second)
		})
	}
}

// TestWordLeftOnBlankLine: Alt+Left, Alt+b and Ctrl+Left on an empty line
// and on a line of spaces leave the shell working (trial finding: they
// froze it, keys and signals ignored, until kill -9).
func TestWordLeftOnBlankLine(t *testing.T) {
	t.Parallel()
	sh := startREPL(t, 24, 100)
	for _, k := range []string{"\x1b[1;3D", "\x1bb", "\x1b[1;5D"} {
		sh.send(k)
		sh.send("   ")
		sh.send(k)
	}
	sh.send("echo still-here\r")
	sh.output(t, "still-here", 5*time.Second)
}
