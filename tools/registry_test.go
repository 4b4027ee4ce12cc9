package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

func echoHandler(ctx context.Context, input json.RawMessage) (Result, error) {
	return TextResult(ToolUseIDFrom(ctx) + ":" + string(input)), nil
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	defs := []Definition{
		{Name: "B", Description: "b", InputSchema: json.RawMessage(`{"type":"object"}`)},
		{Name: "A", Description: "a", InputSchema: json.RawMessage(`{"type":"object"}`)},
	}
	for _, d := range defs {
		if err := r.Register(d, echoHandler); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(defs[0], echoHandler); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Fatalf("duplicate: %v", err)
	}
	if err := r.Register(Definition{}, echoHandler); err == nil {
		t.Fatal("empty name accepted")
	}
	if err := r.Register(Definition{Name: "C"}, nil); err == nil {
		t.Fatal("nil handler accepted")
	}
	got := r.Definitions()
	if len(got) != 2 || got[0].Name != "B" || got[1].Name != "A" {
		t.Fatalf("definitions not in registration order: %+v", got)
	}
	if d, ok := r.Lookup("A"); !ok || d.Description != "a" {
		t.Fatalf("lookup: %+v %v", d, ok)
	}
	if r.Has("a") || !r.Has("A") {
		t.Fatal("Has is not exact")
	}
}

func TestExecuteEchoesIDOnEveryPath(t *testing.T) {
	r := NewRegistry()
	r.Register(Definition{Name: "Echo"}, echoHandler)
	r.Register(Definition{Name: "Fails"}, func(context.Context, json.RawMessage) (Result, error) {
		return Result{}, errors.New("disk on fire")
	})
	r.Register(Definition{Name: "Panics"}, func(context.Context, json.RawMessage) (Result, error) {
		panic("boom")
	})
	r.Register(Definition{Name: "Rejects"}, func(context.Context, json.RawMessage) (Result, error) {
		return ErrorResult("bad input"), nil
	})
	r.Register(Definition{Name: "Waits"}, func(ctx context.Context, _ json.RawMessage) (Result, error) {
		<-ctx.Done()
		return Result{}, ctx.Err()
	})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name, tool string
		ctx        context.Context
		content    string
		isError    bool
	}{
		{"success", "Echo", context.Background(), `toolu_1:{"a":1}`, false},
		{"unknown", "Nope", context.Background(), "Tool 'Nope' not found", true},
		{"go error", "Fails", context.Background(), "Tool 'Fails' failed: disk on fire", true},
		{"panic", "Panics", context.Background(), "Tool 'Panics' failed: panic: boom", true},
		{"is_error", "Rejects", context.Background(), "bad input", true},
		{"cancelled", "Waits", cancelled, "Tool 'Waits' failed: context canceled", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Execute(tt.ctx, "toolu_1", tt.tool, json.RawMessage(`{"a":1}`))
			want := ToolResult{Type: "tool_result", ToolUseID: "toolu_1", Content: tt.content, IsError: tt.isError}
			if res.Type != want.Type || res.ToolUseID != want.ToolUseID || res.Content != want.Content || res.IsError != want.IsError {
				t.Fatalf("got %+v\nwant %+v", res, want)
			}
		})
	}
}

func TestWireFormat(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"definition", Definition{Name: "T", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)},
			`{"name":"T","description":"d","input_schema":{"type":"object"}}`},
		{"tool_use", ToolUse{Type: "tool_use", ID: "toolu_1", Name: "T", Input: json.RawMessage(`{}`)},
			`{"type":"tool_use","id":"toolu_1","name":"T","input":{}}`},
		{"result ok omits is_error", ToolResult{Type: "tool_result", ToolUseID: "toolu_1", Content: "ok"},
			`{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}`},
		{"result error", ToolResult{Type: "tool_result", ToolUseID: "toolu_1", Content: "bad", IsError: true, Meta: 5},
			`{"type":"tool_result","tool_use_id":"toolu_1","content":"bad","is_error":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil || string(b) != tt.want {
				t.Fatalf("got %s (%v)\nwant %s", b, err, tt.want)
			}
		})
	}
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\s", "\n\r\t\x00\x1f\x7f", "<&>", "é界🚀", "\u2028\u2029", "bad\xff\xfeutf8", "\xed\xa0\x80"} {
		got := string(AppendJSONString(nil, s))
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, got, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if utf8.ValidString(s) && back != s || !utf8.ValidString(s) && utf8.RuneCountInString(back) != utf8.RuneCountInString(s) {
			t.Errorf("%q: round trip gave %q (want %q)", s, back, want)
		}
	}
}

func TestAppendJSONStrings(t *testing.T) {
	tests := []struct {
		name string
		list []string
		want string
	}{
		{name: "nil", list: nil, want: `[]`},
		{name: "empty", list: []string{}, want: `[]`},
		{name: "one", list: []string{"a"}, want: `["a"]`},
		{name: "escaped", list: []string{"1", "q\"b", "<&>"}, want: `["1","q\"b","<&>"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(AppendJSONStrings([]byte("x"), tt.list)); got != "x"+tt.want {
				t.Errorf("got %s, want x%s", got, tt.want)
			}
		})
	}
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add("a\"b\x00\xff")
	f.Fuzz(func(t *testing.T, s string) {
		var back string
		if err := json.Unmarshal(AppendJSONString(nil, s), &back); err != nil {
			t.Fatalf("%q: not JSON: %v", s, err)
		}
		var want string
		std, _ := json.Marshal(s)
		json.Unmarshal(std, &want)
		if back != want {
			t.Fatalf("%q: got %q, encoding/json gives %q", s, back, want)
		}
	})
}

func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Register(Definition{Name: fmt.Sprint("T", i)}, echoHandler)
			for j := 0; j < 100; j++ {
				id := fmt.Sprintf("toolu_%d_%d", i, j)
				if res := r.Execute(context.Background(), id, fmt.Sprint("T", i), nil); res.ToolUseID != id {
					t.Errorf("id %q came back as %q", id, res.ToolUseID)
				}
				r.Definitions()
			}
		}()
	}
	wg.Wait()
	if len(r.Definitions()) != 8 {
		t.Fatal("lost a registration")
	}
}

func TestNewToolUseID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewToolUseID()
		if len(id) != 30 || !strings.HasPrefix(id, "toolu_") || strings.Trim(id[6:], base62) != "" || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
}

func TestParseToolUse(t *testing.T) {
	tests := []struct {
		line, id, err string
	}{
		{`{"type":"tool_use","id":"toolu_1","name":"TodoRead","input":{}}`, "toolu_1", ""},
		{`{"id":"toolu_2","type":"tool_use","name":"X","input":{"a":[1]},"cache_control":null}`, "toolu_2", ""},
		{`not json`, "", "invalid JSON"},
		{`{"type":"tool_use","id":"toolu_3","name":"X","input":{}`, "toolu_3", "invalid JSON"},
		{`[1]`, "", "a tool_use block must be a JSON object"},
		{`{"type":"text","id":"toolu_4","name":"X","input":{}}`, "toolu_4", `"type" must be "tool_use"`},
		{`{"type":"tool_use","name":"X","input":{}}`, "", `"id" is required`},
		{`{"type":"tool_use","id":"toolu_5","input":{}}`, "toolu_5", `"name" is required`},
		{`{"type":"tool_use","id":"toolu_6","name":"X"}`, "toolu_6", `"input" must be a JSON object`},
		{`{"type":"tool_use","id":"toolu_7","name":"X","input":[]}`, "toolu_7", `"input" must be a JSON object`},
		{`{"type":"tool_use","id":7,"name":"X","input":{}}`, "", `"id" must be a string`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			use, err := ParseToolUse([]byte(tt.line))
			if use.ID != tt.id {
				t.Errorf("id %q, want %q", use.ID, tt.id)
			}
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err %v, want %q", err, tt.err)
			}
		})
	}
}

// TestAppendJSONStringEscapesC1Controls keeps a tool_result line safe on a
// terminal: U+009B (CSI) and U+009D (OSC) act like ESC [ and ESC ] there.
func TestAppendJSONStringEscapesC1Controls(t *testing.T) {
	got := string(AppendJSONString(nil, "a\u009b31mb\u009d0;title\u0007"))
	if want := `"a\u009b31mb\u009d0;title\u0007"`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	for r := rune(0x80); r <= 0x9f; r++ {
		if s := string(AppendJSONString(nil, string(r))); strings.ContainsRune(s, r) {
			t.Errorf("U+%04X is written raw", r)
		}
	}
}
