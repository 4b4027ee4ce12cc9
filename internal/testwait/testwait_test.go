package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestUntil(t *testing.T) {
	var n atomic.Int32
	for _, tc := range []struct {
		name string
		cond func() bool
		want bool
	}{
		{"holds at once", func() bool { return true }, true},
		{"holds after a few checks", func() bool { return n.Add(1) >= 3 }, true},
		{"never holds", func() bool { return false }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Until(50*time.Millisecond, tc.cond); got != tc.want {
				t.Fatalf("Until = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUntilEveryChecksAtItsInterval(t *testing.T) {
	var n atomic.Int32
	begin := time.Now()
	if !UntilEvery(time.Second, 100*time.Microsecond, func() bool { return n.Add(1) >= 20 }) {
		t.Fatal("UntilEvery gave up on a condition that holds on the 20th check")
	}
	// 20 checks at Interval (5 ms) would take 95 ms at the least.
	if d := time.Since(begin); d >= 19*Interval {
		t.Fatalf("20 checks every 100 µs took %v", d)
	}
	if UntilEvery(20*time.Millisecond, time.Millisecond, func() bool { return false }) {
		t.Fatal("UntilEvery held for a condition that never holds")
	}
}

// fakeTB records a Fatalf instead of ending the test.
type fakeTB struct {
	testing.TB
	failed string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = format
}

func TestForFailsWithWhatItWaitedFor(t *testing.T) {
	f := &fakeTB{TB: t}
	For(f, 20*time.Millisecond, "the moon", func() bool { return false }, func() string { return "sky: empty" })
	if f.failed == "" {
		t.Fatal("For did not fail")
	}
	f = &fakeTB{TB: t}
	For(f, time.Second, "now", func() bool { return true })
	if f.failed != "" {
		t.Fatal("For failed on a condition that held")
	}
}
