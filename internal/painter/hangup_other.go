//go:build !linux

package painter

// OnHangup is a no-op where the terminal's hang-up cannot be watched for;
// SIGHUP still ends the program there.
func (t *Terminal) OnHangup(func()) (stop func()) { return func() {} }
