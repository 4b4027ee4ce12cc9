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
	if !UntilEvery(time.Minute, 100*time.Microsecond, func() bool { return n.Add(1) >= 20 }) {
		t.Fatal("UntilEvery gave up on a condition that holds on the 20th check")
	}
	// A ticker drops the ticks a busy machine misses: never more checks
	// than the interval allows, however loaded the machine (an upper
	// bound on time would not hold there).
	n.Store(0)
	begin := time.Now()
	if UntilEvery(50*time.Millisecond, 10*time.Millisecond, func() bool { n.Add(1); return false }) {
		t.Fatal("UntilEvery held for a condition that never holds")
	}
	took := time.Since(begin)
	if took < 50*time.Millisecond {
		t.Fatalf("gave up after %v, before its 50 ms", took)
	}
	if most := int32(took/(10*time.Millisecond)) + 2; n.Load() > most {
		t.Fatalf("%d checks in %v every 10 ms, want at most %d", n.Load(), took, most)
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

// TestUntilLooksLessOftenAsItWaits: past Steady the checks thin out to one
// every MaxInterval; at Interval throughout, a second's wait would check
// 200 times. (Fewer checks than the schedule allows are fine: a busy
// machine sleeps longer.)
func TestUntilLooksLessOftenAsItWaits(t *testing.T) {
	var n atomic.Int32
	begin := time.Now()
	if Until(time.Second, func() bool { n.Add(1); return false }) {
		t.Fatal("Until held for a condition that never holds")
	}
	if took := time.Since(begin); took < time.Second {
		t.Fatalf("gave up after %v, before its second", took)
	}
	// 40 checks in the first 200 ms, about 11 while the interval grows
	// to 50 ms (some 240 ms), then one every 50 ms for the rest.
	most := int32(Steady/Interval) + 11 + int32((time.Second-Steady)/MaxInterval) + 2
	if n.Load() > most {
		t.Fatalf("%d checks in a second, want at most %d", n.Load(), most)
	}
}
