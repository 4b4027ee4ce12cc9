//go:build !linux

package painter

// Pending reads nothing where the input queue cannot be measured.
func (t *Terminal) Pending() []byte { return nil }

// Inject puts nothing back where TIOCSTI is not used: all of b is returned.
func (t *Terminal) Inject(b []byte) (rest []byte) { return b }
