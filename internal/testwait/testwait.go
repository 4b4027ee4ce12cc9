// Package testwait is the one "wait until" of todo-shell's tests: a test
// waits for the condition it asserts (a line on the screen, a process gone,
// a file written), never for a length of time.
package testwait

import (
	"testing"
	"time"
)

// For and Until check their condition every Interval for the first
// Steady of a wait (so a benchmark that times how soon something shows
// keeps a 5 ms resolution), then a quarter less often each time, up to
// MaxInterval: a long wait does not spend a core on checking (a terminal
// test's check reads the screen from tmux).
const (
	Interval    = 5 * time.Millisecond
	Steady      = 200 * time.Millisecond
	MaxInterval = 50 * time.Millisecond
)

// For checks cond (see Interval) until it holds, and fails the test with
// what (and the text describe returns, when it is not nil) if it does not
// hold within d.
func For(tb testing.TB, d time.Duration, what string, cond func() bool, describe ...func() string) {
	tb.Helper()
	if Until(d, cond) {
		return
	}
	msg := ""
	for _, f := range describe {
		msg += "\n" + f()
	}
	tb.Fatalf("waited %v for %s%s", d, what, msg)
}

// Until checks cond (see Interval) until it holds or d has passed, and says
// whether it held. It is for tests that wait in a goroutine, where Fatal
// cannot be called.
func Until(d time.Duration, cond func() bool) bool {
	start := time.Now()
	deadline := start.Add(d)
	wait := Interval
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(wait)
		if time.Since(start) >= Steady {
			wait = min(wait*5/4, MaxInterval)
		}
	}
	return true
}

// UntilEvery is Until checking every interval: for a benchmark that times
// how soon something happens, where Interval would be too coarse.
func UntilEvery(d, interval time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}
