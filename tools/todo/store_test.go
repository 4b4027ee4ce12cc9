package todo

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools"
)

func fixedClock() func() time.Time {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	n := 0
	return func() time.Time { n++; return t0.Add(time.Duration(n) * time.Second) }
}

func newTools(t testing.TB, limits Limits) (*tools.Registry, *Store) {
	t.Helper()
	store := NewStore(fixedClock())
	reg := tools.NewRegistry()
	if err := Register(reg, store, limits, nil); err != nil {
		t.Fatal(err)
	}
	return reg, store
}

func TestStoreReplaceAndCopies(t *testing.T) {
	s := NewStore(fixedClock())
	if snap := s.Snapshot(); snap.Version != 0 || len(snap.Items) != 0 {
		t.Fatalf("new store: %+v", snap)
	}
	if v := s.Replace([]Item{{"a", StatusPending, "A"}}); v != 1 {
		t.Fatalf("version %d", v)
	}
	snap := s.Snapshot()
	if snap.Items[0].Content != "a" || snap.Version != 1 {
		t.Fatalf("snapshot: %+v", snap)
	}
	snap.Items[0].Content = "mutated by reader"
	if s.Snapshot().Items[0].Content != "a" {
		t.Fatal("store shares its slice with a reader")
	}
	before := s.Snapshot().UpdatedAt
	s.Replace(nil)
	if snap := s.Snapshot(); len(snap.Items) != 0 || snap.Version != 2 || !snap.UpdatedAt.After(before) {
		t.Fatalf("clear: %+v", snap)
	}
}

func TestSubscribers(t *testing.T) {
	s := NewStore(fixedClock())
	sub := s.Events().Latest()
	s.Replace([]Item{{"a", StatusPending, "A"}})
	got := <-sub.C()
	if got.Version != 1 || got.Items[0].Content != "a" {
		t.Fatalf("event: %+v", got)
	}
	// A subscriber that does not read skips versions but ends on the latest.
	for i := 0; i < 100; i++ {
		s.Replace([]Item{{fmt.Sprint(i), StatusPending, "A"}})
	}
	got = <-sub.C()
	if got.Version != 101 || got.Items[0].Content != "99" {
		t.Fatalf("slow subscriber got %+v, want version 101", got)
	}
	select {
	case extra := <-sub.C():
		t.Fatalf("unexpected extra event %+v", extra)
	default:
	}
	sub.Close()
	sub.Close() // twice is fine
	s.Replace(nil)
	if _, ok := <-sub.C(); ok {
		t.Fatal("closed subscription still receives")
	}
}

func TestRejectedWriteChangesNothing(t *testing.T) {
	reg, store := newTools(t, DefaultLimits())
	sub := store.Events().Latest()
	defer sub.Close()
	first := json.RawMessage(list(item("a", "pending", "A")))
	if res := reg.Execute(context.Background(), "toolu_1", WriteName, first); res.IsError {
		t.Fatal(res.Content)
	}
	<-sub.C()
	before := store.Snapshot()
	for _, bad := range []string{
		list(item("b", "pending", "B"), item("", "pending", "C")),
		list(item("b", "in_progress", "B"), item("c", "in_progress", "C")),
		`{"todos":[`, `{"todos":[],"x":1}`,
	} {
		res := reg.Execute(context.Background(), "toolu_2", WriteName, json.RawMessage(bad))
		if !res.IsError || res.ToolUseID != "toolu_2" {
			t.Fatalf("%s: %+v", bad, res)
		}
	}
	if after := store.Snapshot(); !reflect.DeepEqual(before, after) {
		t.Fatalf("store changed:\n%+v\n%+v", before, after)
	}
	select {
	case ev := <-sub.C():
		t.Fatalf("subscriber told of a rejected write: %+v", ev)
	default:
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	reg, _ := newTools(t, DefaultLimits())
	ctx := context.Background()
	read := func() string {
		res := reg.Execute(ctx, "toolu_r", ReadName, json.RawMessage(`{}`))
		if res.IsError {
			t.Fatal(res.Content)
		}
		return res.Content
	}
	if got := read(); got != `{"todos":[]}` {
		t.Fatalf("empty read: %s", got)
	}
	items := []Item{
		{"  keep spaces  ", StatusCompleted, "Keeping"},
		{"界 🚀 \"quoted\" \\ \u2028", StatusInProgress, "Doing 界"},
		{"x", StatusPending, "y"},
	}
	input, _ := json.Marshal(map[string]any{"todos": items})
	res := reg.Execute(ctx, "toolu_w", WriteName, input)
	if res.IsError || res.Content != `{"success":true,"count":3}` {
		t.Fatalf("write: %+v", res)
	}
	var back struct{ Todos []Item }
	if err := json.Unmarshal([]byte(read()), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Todos, items) {
		t.Fatalf("round trip\n got %+v\nwant %+v", back.Todos, items)
	}
	if res := reg.Execute(ctx, "toolu_w2", WriteName, json.RawMessage(`{"todos":[]}`)); res.Content != `{"success":true,"count":0}` {
		t.Fatalf("clear: %+v", res)
	}
	if got := read(); got != `{"todos":[]}` {
		t.Fatalf("read after clear: %s", got)
	}
}

func TestReadRejectsInput(t *testing.T) {
	reg, _ := newTools(t, DefaultLimits())
	for in, want := range map[string]string{
		`{"x":1}`: "Unknown field 'x'",
		`[1]`:     "Input must be a JSON object",
		`{`:       "Invalid JSON input: unexpected end of JSON input (at offset 1)",
	} {
		res := reg.Execute(context.Background(), "toolu_1", ReadName, json.RawMessage(in))
		if !res.IsError || res.Content != want {
			t.Errorf("%s: got %+v, want %q", in, res, want)
		}
	}
	for _, in := range []string{``, `{}`, `null`, ` { } `} {
		if res := reg.Execute(context.Background(), "toolu_1", ReadName, json.RawMessage(in)); res.IsError {
			t.Errorf("%q: %s", in, res.Content)
		}
	}
}

// TestWriteResultCarriesEveryMessage: a model is told every reason a
// TodoWrite was rejected, as a person at the shell is; a lone reason stays
// as it is.
func TestWriteResultCarriesEveryMessage(t *testing.T) {
	reg, _ := newTools(t, DefaultLimits())
	res := reg.Execute(context.Background(), "toolu_x", WriteName, json.RawMessage(list(item("", "done", "x"), item("b", "in_progress", "x"), item("c", "in_progress", "x"))))
	want := "Validation failed\n" +
		"- Todo at index 0: content is required and cannot be empty\n" +
		"- Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed\n" +
		"- Only one todo can be in_progress at a time (found 2)"
	if !res.IsError || res.Content != want {
		t.Fatalf("got %q\nwant %q", res.Content, want)
	}
	res = reg.Execute(context.Background(), "toolu_x", WriteName, json.RawMessage(list(item("", "pending", "x"))))
	if !res.IsError || res.Content != "Todo at index 0: content is required and cannot be empty" {
		t.Fatalf("%+v", res)
	}
	res = reg.Execute(context.Background(), "toolu_x", WriteName, json.RawMessage(`{"todos":`))
	if !res.IsError || res.Content != "Invalid JSON input: unexpected end of JSON input (at offset 9)" {
		t.Fatalf("%+v", res)
	}
}

func TestCancelledContext(t *testing.T) {
	reg, store := newTools(t, DefaultLimits())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := reg.Execute(ctx, "toolu_c", WriteName, json.RawMessage(list(item("a", "pending", "b"))))
	if !res.IsError || store.Snapshot().Version != 0 {
		t.Fatalf("cancelled write ran: %+v", res)
	}
}

// TestConcurrentWritersAndSubscribers runs under -race: writers, readers and
// subscribers at once; every subscriber ends on the final version.
func TestConcurrentWritersAndSubscribers(t *testing.T) {
	reg, store := newTools(t, DefaultLimits())
	const writers, writes, subscribers = 4, 200, 4
	var subs []*tools.Latest[Snapshot]
	for i := 0; i < subscribers; i++ {
		subs = append(subs, store.Events().Latest())
	}
	var wg sync.WaitGroup
	last := make([]uint64, subscribers)
	done := make(chan struct{})
	for i, sub := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case snap := <-sub.C():
					last[i] = snap.Version
				case <-done:
					for {
						select {
						case snap := <-sub.C():
							last[i] = snap.Version
						default:
							return
						}
					}
				}
			}
		}()
	}
	var ww sync.WaitGroup
	for w := 0; w < writers; w++ {
		ww.Add(1)
		go func() {
			defer ww.Done()
			for i := 0; i < writes; i++ {
				in := list(item(fmt.Sprintf("w%d-%d", w, i), "in_progress", "x"))
				if res := reg.Execute(context.Background(), "toolu_c", WriteName, json.RawMessage(in)); res.IsError {
					t.Error(res.Content)
				}
				reg.Execute(context.Background(), "toolu_r", ReadName, nil)
				store.Snapshot()
			}
		}()
	}
	ww.Wait()
	close(done)
	wg.Wait()
	final := store.Snapshot().Version
	if final != writers*writes {
		t.Fatalf("final version %d, want %d", final, writers*writes)
	}
	for i, v := range last {
		if v != final {
			t.Errorf("subscriber %d ended on version %d, want %d", i, v, final)
		}
	}
}

// TestEverySeesEveryVersion: unlike a Latest subscriber, an Every
// subscriber hears of every version, in order, with the tool_use_id that
// wrote it; a Restore is published once, at its own version; an
// unsubscribed function hears nothing.
func TestEverySeesEveryVersion(t *testing.T) {
	s := NewStore(nil)
	var got []Snapshot
	remove := s.Events().Every(func(snap Snapshot) { got = append(got, snap) })
	s.Restore(Snapshot{Items: []Item{{Content: "a", ActiveForm: "a", Status: StatusPending}}, Version: 41})
	if s.Version() != 41 || len(s.Snapshot().Items) != 1 || len(got) != 1 || got[0].Version != 41 || len(got[0].Items) != 1 {
		t.Fatalf("after Restore: version %d, %d calls", s.Version(), len(got))
	}
	got = nil
	for i := range 100 {
		s.ReplaceFor(fmt.Sprintf("toolu_%d", i), nil)
	}
	s.Replace(nil)
	if len(got) != 101 {
		t.Fatalf("%d calls, want 101", len(got))
	}
	for i, snap := range got[:100] {
		if snap.Version != uint64(42+i) || snap.ToolUseID != fmt.Sprintf("toolu_%d", i) {
			t.Fatalf("call %d: %+v", i, snap)
		}
	}
	remove()
	remove() // twice is harmless
	s.Replace(nil)
	if len(got) != 101 {
		t.Fatal("an unsubscribed function was called")
	}
}

// TestWriteRecordsToolUseID: a version written by TodoWrite carries the
// call's tool_use_id.
func TestWriteRecordsToolUseID(t *testing.T) {
	reg, store := newTools(t, DefaultLimits())
	var ids []string
	store.Events().Every(func(snap Snapshot) { ids = append(ids, snap.ToolUseID) })
	reg.Execute(context.Background(), "toolu_abc", WriteName, []byte(`{"todos":[]}`))
	reg.Execute(context.Background(), "toolu_bad", WriteName, []byte(`{}`))
	if len(ids) != 1 || ids[0] != "toolu_abc" {
		t.Fatalf("hook saw %q", ids)
	}
}
