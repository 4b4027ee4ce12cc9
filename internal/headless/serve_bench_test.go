package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// tenItemCalls returns n tool_use lines, each a TodoWrite of 10 items.
func tenItemCalls(n int) []byte {
	input := golden.TenTodos()
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"type":"tool_use","id":"toolu_%08d","name":"TodoWrite","input":%s}`+"\n", i, input)
	}
	return b.Bytes()
}

// BenchmarkServe is the tool server's throughput: one op is one TodoWrite
// call of 10 items, read, executed and answered.
func BenchmarkServe(b *testing.B) {
	in := tenItemCalls(b.N)
	store := todo.NewStore(nil)
	reg := tools.NewRegistry()
	todo.Register(reg, store, todo.DefaultLimits(), nil)
	b.SetBytes(int64(len(in) / max(b.N, 1)))
	b.ReportAllocs()
	b.ResetTimer()
	ex := tools.NewExecutor(reg, offload.Policy{Config: offload.Config{Threshold: 1000, Dir: b.TempDir(), Session: "b"}})
	if err := Serve(context.Background(), ex, bytes.NewReader(in), io.Discard); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkServeBaselineEncodingJSON is the plain loop the issue compares
// against: decode each line into generic values with encoding/json, check
// it, encode the result with encoding/json.
func BenchmarkServeBaselineEncodingJSON(b *testing.B) {
	in := tenItemCalls(b.N)
	b.SetBytes(int64(len(in) / max(b.N, 1)))
	b.ReportAllocs()
	b.ResetTimer()
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	w := bufio.NewWriter(io.Discard)
	enc := json.NewEncoder(w)
	var items []todo.Item
	for sc.Scan() {
		var use map[string]any
		if err := json.Unmarshal(sc.Bytes(), &use); err != nil {
			b.Fatal(err)
		}
		input, _ := use["input"].(map[string]any)
		todos, _ := input["todos"].([]any)
		items = items[:0]
		for _, t := range todos {
			m := t.(map[string]any)
			c, _ := m["content"].(string)
			s, _ := m["status"].(string)
			a, _ := m["activeForm"].(string)
			if strings.TrimSpace(c) == "" || strings.TrimSpace(a) == "" || (s != "pending" && s != "in_progress" && s != "completed") {
				b.Fatal("invalid")
			}
			items = append(items, todo.Item{Content: c, Status: s, ActiveForm: a})
		}
		content, _ := json.Marshal(map[string]any{"success": true, "count": len(items)})
		enc.Encode(map[string]any{"type": "tool_result", "tool_use_id": use["id"], "content": string(content)})
	}
	w.Flush()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}
