package tools

import "crypto/rand"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// IDGenerator returns fresh identifiers; front ends inject one so tests are
// deterministic.
type IDGenerator func() string

// NewToolUseID returns a fresh id of the form "toolu_" followed by 24 base62
// characters, drawn from crypto/rand.
func NewToolUseID() string {
	var b [30]byte
	copy(b[:], "toolu_")
	fillBase62(b[6:])
	return string(b[:])
}

// RandomBase62 returns n random characters from [0-9A-Za-z], uniformly: bytes
// of 248 or more are thrown away so that every character is equally likely.
func RandomBase62(n int) string {
	out := make([]byte, n)
	fillBase62(out)
	return string(out)
}

// fillBase62 fills out with random base62 characters.
func fillBase62(out []byte) {
	var buf [64]byte
	for n := 0; n < len(out); {
		rand.Read(buf[:]) // never fails (Go 1.24+)
		for _, b := range buf {
			if b < 248 && n < len(out) {
				out[n] = base62[b%62]
				n++
			}
		}
	}
}
