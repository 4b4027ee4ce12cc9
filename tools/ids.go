package tools

import (
	"crypto/rand"
	"math/big"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// IDGenerator returns fresh identifiers; front ends inject one so tests are
// deterministic.
type IDGenerator func() string

// NewToolUseID returns a fresh id of the form "toolu_" followed by 24 base62
// characters, drawn from crypto/rand.
func NewToolUseID() string { return "toolu_" + RandomBase62(24) }

// RandomBase62 returns n random characters from [0-9A-Za-z].
func RandomBase62(n int) string {
	b := make([]byte, n)
	max := big.NewInt(int64(len(base62)))
	for i := range b {
		v, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		b[i] = base62[v.Int64()]
	}
	return string(b)
}
