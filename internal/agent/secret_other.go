//go:build !linux

package agent

import "os"

// Hide returns the credentials from the environment; outside Linux the
// process does not re-execute itself (no /proc environ to protect).
func Hide() (Credentials, error) { return FromEnv(os.Getenv), nil }
