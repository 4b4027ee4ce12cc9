// Package testwait is the one "wait until" of todo-shell's tests: a test
// waits for the condition it asserts (a line on the screen, a process gone,
// a file written), never for a length of time.
package testwait

import (
	"testing"
	"time"
)

// For and Until check their condition first after Interval, then a quarter
// later each time, up to MaxInterval: a condition that holds soon is seen
// soon, and a long wait does not spend a core on checking (a terminal
// test's check runs a process: tmux capture-pane costs about 4 ms of CPU).
const (
	Interval    = 5 * time.Millisecond
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
	deadline := time.Now().Add(d)
	wait := Interval
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(wait)
		wait = min(wait*5/4, MaxInterval)
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
