package todo

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
)

// tenItems is a realistic 10-item TodoWrite input (about 1 KB).
var tenItems = []byte(golden.TenTodos())

// BenchmarkTodoWrite is the whole call: decode, validate, store, notify one
// subscriber, answer.
func BenchmarkTodoWrite(b *testing.B) {
	reg, store := newTools(b, DefaultLimits())
	sub := store.Events().Latest()
	defer sub.Close()
	ctx := context.Background()
	input := json.RawMessage(tenItems)
	b.SetBytes(int64(len(input)))
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Execute(ctx, "toolu_bench", WriteName, input); res.IsError {
			b.Fatal(res.Content)
		}
	}
}

func BenchmarkTodoRead(b *testing.B) {
	reg, _ := newTools(b, DefaultLimits())
	reg.Execute(context.Background(), "toolu_w", WriteName, tenItems)
	b.ReportAllocs()
	for b.Loop() {
		reg.Execute(context.Background(), "toolu_r", ReadName, nil)
	}
}

// BenchmarkDecodeCandidates measures the JSON paths considered for
// TodoWrite's decode and validation of a 10-item list.
func BenchmarkDecodeCandidates(b *testing.B) {
	b.Run("jsonscan (chosen)", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Validate(tenItems, DefaultLimits()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json generic", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v map[string]any
			if err := json.Unmarshal(tenItems, &v); err != nil {
				b.Fatal(err)
			}
			for _, it := range v["todos"].([]any) {
				m := it.(map[string]any)
				_ = strings.TrimSpace(m["content"].(string)) != "" && m["status"] != nil
			}
		}
	})
	b.Run("encoding/json typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v struct{ Todos []Item }
			dec := json.NewDecoder(strings.NewReader(string(tenItems)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
