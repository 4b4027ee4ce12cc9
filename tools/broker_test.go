package tools

import (
	"slices"
	"sync"
	"testing"
)

// TestBrokerEvery: an Every subscriber hears every value in order, from
// when it subscribed; unsubscribing (twice too) stops it, and leaves the
// others in their order.
func TestBrokerEvery(t *testing.T) {
	var b Broker[int]
	b.Publish(0) // before anyone subscribes: heard by no Every subscriber
	var got [3][]int
	var cancels []func()
	for i := range got {
		cancels = append(cancels, b.Every(func(v int) { got[i] = append(got[i], v) }))
	}
	for v := 1; v <= 100; v++ {
		b.Publish(v)
		if v == 50 {
			cancels[1]()
			cancels[1]()
		}
	}
	want := make([]int, 100)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(got[0], want) || !slices.Equal(got[2], want) || !slices.Equal(got[1], want[:50]) {
		t.Fatalf("heard %v", got)
	}
}

// TestBrokerLatest: a Latest subscriber that does not read skips values
// but ends on the newest; one that subscribes late starts with the last
// value; a closed one receives nothing more; Publish never waits.
func TestBrokerLatest(t *testing.T) {
	var b Broker[int]
	early := b.Latest()
	select {
	case v := <-early.C():
		t.Fatalf("a value (%d) before any was published", v)
	default:
	}
	for v := 1; v <= 100; v++ {
		b.Publish(v)
	}
	if v := <-early.C(); v != 100 {
		t.Fatalf("slow subscriber got %d, want 100", v)
	}
	select {
	case v := <-early.C():
		t.Fatalf("an extra value %d", v)
	default:
	}
	late := b.Latest()
	if v := <-late.C(); v != 100 {
		t.Fatalf("late subscriber starts with %d, want 100", v)
	}
	if last, ok := b.Last(); !ok || last != 100 {
		t.Fatalf("Last() = %d, %v", last, ok)
	}
	early.Close()
	early.Close() // twice is fine
	b.Publish(101)
	if _, ok := <-early.C(); ok {
		t.Fatal("a closed subscription still receives")
	}
	if v := <-late.C(); v != 101 {
		t.Fatalf("got %d, want 101", v)
	}
	late.Close()
	if b.Active() {
		t.Fatal("active with no subscriber")
	}
}

// TestBrokerConcurrent runs under -race: publishers in turn (as a store
// publishes under its lock), Latest readers and Every subscribers coming
// and going; every reader ends on the last value.
func TestBrokerConcurrent(t *testing.T) {
	var b Broker[int]
	var publisher sync.Mutex // the store's lock
	const readers, writes = 4, 500
	subs := make([]*Latest[int], readers)
	for i := range subs {
		subs[i] = b.Latest()
	}
	var wg sync.WaitGroup
	last := make([]int, readers)
	for i, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range s.C() {
				last[i] = v
			}
		}()
	}
	var ww sync.WaitGroup
	n := 0
	for range 4 {
		ww.Add(1)
		go func() {
			defer ww.Done()
			for range writes {
				cancel := b.Every(func(int) {})
				publisher.Lock()
				n++
				b.Publish(n)
				publisher.Unlock()
				cancel()
			}
		}()
	}
	ww.Wait()
	for _, s := range subs {
		s.Close()
	}
	wg.Wait()
	for i, v := range last {
		if v != 4*writes {
			t.Errorf("reader %d ended on %d, want %d", i, v, 4*writes)
		}
	}
}
