//go:build !linux

package painter

import "os"

// Pending reads nothing where the input queue cannot be measured.
func (t *Terminal) Pending() []byte { return nil }

// Inject puts nothing back where TIOCSTI is not used: all of b is returned.
func (t *Terminal) Inject(b []byte) (rest []byte) { return b }

// queued is 0 where the input queue cannot be measured.
func queued(*os.File) int { return 0 }
