package task

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// BenchmarkSharedPlan8 is 8 stores on one plan directory (8 open files, so
// the flock excludes them as it does 8 processes), each making changes in
// turn: a create, then updates of it.
func BenchmarkSharedPlan8(b *testing.B) {
	dir := b.TempDir()
	const stores = 8
	regs := make([]*tools.Registry, stores)
	for i := range regs {
		s, err := OpenStore(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		regs[i] = tools.NewRegistry()
		if err := Register(regs[i], s, Options{Limits: todo.Limits{MaxItems: 1_000_000, MaxContentLength: 200}, Caller: fmt.Sprint("a", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var wg sync.WaitGroup
	per := b.N/stores + 1
	for i := range regs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range per {
				in, name := fmt.Sprintf(`{"subject":"s%d-%d","description":"made by the benchmark"}`, i, n), CreateName
				if n%3 != 0 {
					in, name = fmt.Sprintf(`{"taskId":"%d","metadata":{"n":%d}}`, n/3*stores+1, n), UpdateName
				}
				regs[i].Execute(context.Background(), "toolu_b", name, json.RawMessage(in))
			}
		}()
	}
	wg.Wait()
}
