package tools

import "crypto/rand"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// IDGenerator returns fresh identifiers; front ends inject one so tests are
// deterministic.
type IDGenerator func() string

// NewToolUseID returns a fresh id of the form "toolu_" followed by 24 base62
// characters, drawn from crypto/rand.
func NewToolUseID() string { return "toolu_" + RandomBase62(24) }

// RandomBase62 returns n random characters from [0-9A-Za-z], uniformly: bytes
// of 248 or more are thrown away so that every character is equally likely.
func RandomBase62(n int) string {
	out := make([]byte, 0, n)
	var buf [64]byte
	for len(out) < n {
		rand.Read(buf[:]) // never fails (Go 1.24+)
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out)
}
