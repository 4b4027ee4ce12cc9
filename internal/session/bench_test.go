package session

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// tenItems is a realistic 10-item TodoWrite input (about 1 KB).
var tenItems = json.RawMessage(golden.TenTodos())

// BenchmarkTodoWrite is the whole TodoWrite call through the registry, with
// one store subscriber (as the REPL has): without a session, with one
// (what the caller waits for: the files are written off its path), and with
// one, waiting at the end until every version is on disk (so the disk work,
// batched, is counted too).
func BenchmarkTodoWrite(b *testing.B) {
	setup := func(b *testing.B) (*tools.Registry, *todo.Store) {
		reg, store := tools.NewRegistry(), todo.NewStore(nil)
		if err := todo.Register(reg, store, todo.DefaultLimits(), nil); err != nil {
			b.Fatal(err)
		}
		sub := store.Events().Latest()
		b.Cleanup(sub.Close)
		go func() {
			for range sub.C() {
			}
		}()
		return reg, store
	}
	ctx := context.Background()
	run := func(b *testing.B, reg *tools.Registry) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if res := reg.Execute(ctx, "toolu_bench", todo.WriteName, tenItems); res.IsError {
				b.Fatal(res.Content)
			}
		}
	}
	b.Run("memory", func(b *testing.B) {
		reg, _ := setup(b)
		run(b, reg)
	})
	b.Run("session", func(b *testing.B) {
		reg, store := setup(b)
		s, err := Open(b.TempDir(), "bench", Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Attach(store)
		run(b, reg)
		b.StopTimer()
		s.Close()
	})
	// A model's TodoWrites come seconds apart: time each call alone, with
	// the writer idle (waiting for the disk between calls, untimed).
	perCall := func(b *testing.B, reg *tools.Registry, s *Session) {
		var total time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			res := reg.Execute(ctx, "toolu_bench", todo.WriteName, tenItems)
			total += time.Since(start)
			if res.IsError {
				b.Fatal(res.Content)
			}
			if s != nil {
				s.Flush()
			}
		}
		b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/call")
	}
	b.Run("memory-spaced", func(b *testing.B) {
		reg, _ := setup(b)
		perCall(b, reg, nil)
	})
	b.Run("session-spaced", func(b *testing.B) {
		reg, store := setup(b)
		s, err := Open(b.TempDir(), "bench", Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Attach(store)
		perCall(b, reg, s)
		b.StopTimer()
		s.Close()
	})
	b.Run("session+flush", func(b *testing.B) {
		reg, store := setup(b)
		s, err := Open(b.TempDir(), "bench", Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Attach(store)
		run(b, reg)
		s.Flush()
		b.StopTimer()
		s.Close()
	})
}

// makeSessions writes n sessions under dir, as a day of work leaves them:
// a list of 10, a few versions, two offloaded files, a transcript.
func makeSessions(tb testing.TB, dir string, n int) {
	tb.Helper()
	items := []todo.Item{}
	json.Unmarshal(must(json.Marshal(map[string]any{})), &items)
	var l struct{ Todos []todo.Item }
	json.Unmarshal(tenItems, &l)
	for i := range n {
		id := fmt.Sprintf("s%04d", i)
		s, err := Open(dir, id, Options{Mode: ModeAgent})
		if err != nil {
			tb.Fatal(err)
		}
		store := todo.NewStore(nil)
		s.Attach(store)
		for v := range 3 {
			store.ReplaceFor(fmt.Sprintf("toolu_%d", v), l.Todos)
		}
		for f := range 2 {
			os.WriteFile(filepath.Join(s.Path(), fmt.Sprintf("toolu_%d.md", f)), make([]byte, 2000), 0o600)
		}
		os.WriteFile(filepath.Join(s.Path(), TranscriptFile), make([]byte, 4000), 0o600)
		s.Close()
		old := time.Now().Add(-time.Duration(i) * time.Minute)
		os.Chtimes(s.Path(), old, old)
	}
}

func must(b []byte, _ error) []byte { return b }

// BenchmarkList1000 is `todo-shell sessions` over 1,000 sessions.
func BenchmarkList1000(b *testing.B) {
	dir := b.TempDir()
	makeSessions(b, dir, 1000)
	b.ResetTimer()
	for b.Loop() {
		list, err := List(dir)
		if err != nil || len(list) != 1000 {
			b.Fatalf("%d sessions, %v", len(list), err)
		}
	}
}
