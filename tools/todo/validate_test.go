package todo

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func item(content, status, active string) string {
	return fmt.Sprintf(`{"content":%q,"status":%q,"activeForm":%q}`, content, status, active)
}

func list(items ...string) string { return `{"todos":[` + strings.Join(items, ",") + `]}` }

func repeat(n int, s string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestValidateMessages(t *testing.T) {
	lim := DefaultLimits()
	ok := item("Run tests", "pending", "Running tests")
	tests := []struct {
		name  string
		input string
		want  []string // nil: accepted
	}{
		{"empty list", `{"todos":[]}`, nil},
		{"one item", list(ok), nil},
		{"one character", list(item("x", "completed", "y")), nil},
		{"todos absent", `{}`, []string{"'todos' array is required"}},
		{"todos absent with unknown key", `{"todo":[]}`, []string{"'todos' array is required", "Unknown field 'todo'"}},
		{"todos null", `{"todos":null}`, []string{"'todos' must be an array"}},
		{"todos string", `{"todos":"x"}`, []string{"'todos' must be an array"}},
		{"todos object", `{"todos":{}}`, []string{"'todos' must be an array"}},
		{"not an object", `[]`, []string{"Input must be a JSON object with a 'todos' array"}},
		{"unknown top-level key", `{"todos":[],"extra":1}`, []string{"Unknown field 'extra'"}},
		{"unknown keys in order", `{"b":1,"todos":[],"a":2}`, []string{"Unknown field 'b'", "Unknown field 'a'"}},
		{"item not object", list(`"x"`), []string{"Todo at index 0: must be an object"}},
		{"item null", list(ok, `null`), []string{"Todo at index 1: must be an object"}},
		{"content missing", list(`{"status":"pending","activeForm":"a"}`), []string{"Todo at index 0: content is required and cannot be empty"}},
		{"content empty", list(item("", "pending", "a")), []string{"Todo at index 0: content is required and cannot be empty"}},
		{"content blank", list(item(" \t\n", "pending", "a")), []string{"Todo at index 0: content is required and cannot be empty"}},
		{"content ideographic space", list(item("\u3000", "pending", "a")), []string{"Todo at index 0: content is required and cannot be empty"}},
		{"content number", list(`{"content":1,"status":"pending","activeForm":"a"}`), []string{"Todo at index 0: content is required and cannot be empty"}},
		{"content at limit", list(item(strings.Repeat("a", 200), "pending", "a")), nil},
		{"content past limit", list(item(strings.Repeat("a", 201), "pending", "a")), []string{"Todo at index 0: content exceeds 200 characters"}},
		{"content wide at limit", list(item(strings.Repeat("界", 200), "pending", "a")), nil},
		{"content emoji past limit", list(item(strings.Repeat("🚀", 201), "pending", "a")), []string{"Todo at index 0: content exceeds 200 characters"}},
		{"status bad", list(item("a", "done", "b")), []string{"Todo at index 0: invalid status 'done'. Must be one of: pending, in_progress, completed"}},
		{"status case", list(item("a", "Pending", "b")), []string{"Todo at index 0: invalid status 'Pending'. Must be one of: pending, in_progress, completed"}},
		{"status number", list(`{"content":"a","status":3,"activeForm":"b"}`), []string{"Todo at index 0: invalid status '3'. Must be one of: pending, in_progress, completed"}},
		{"status null", list(`{"content":"a","status":null,"activeForm":"b"}`), []string{"Todo at index 0: invalid status 'null'. Must be one of: pending, in_progress, completed"}},
		{"status object compacted", list(`{"content":"a","status":{ "x" : [1, 2] },"activeForm":"b"}`), []string{`Todo at index 0: invalid status '{"x":[1,2]}'. Must be one of: pending, in_progress, completed`}},
		{"status missing", list(`{"content":"a","activeForm":"b"}`), []string{"Todo at index 0: status is required. Must be one of: pending, in_progress, completed"}},
		{"activeForm empty", list(item("a", "pending", "")), []string{"Todo at index 0: activeForm is required and cannot be empty"}},
		{"activeForm missing", list(`{"content":"a","status":"pending"}`), []string{"Todo at index 0: activeForm is required and cannot be empty"}},
		{"activeForm past limit", list(item("a", "pending", strings.Repeat("b", 201))), []string{"Todo at index 0: activeForm exceeds 200 characters"}},
		{"unknown item key", list(`{"content":"a","status":"pending","activeForm":"b","id":"1"}`), []string{"Todo at index 0: unknown field 'id'"}},
		{"every item error in order", list(`{"content":"","status":"x","activeForm":"","p":1}`),
			[]string{
				"Todo at index 0: content is required and cannot be empty",
				"Todo at index 0: invalid status 'x'. Must be one of: pending, in_progress, completed",
				"Todo at index 0: activeForm is required and cannot be empty",
				"Todo at index 0: unknown field 'p'",
			}},
		{"items at limit", list(repeat(50, ok)...), nil},
		{"items past limit", list(repeat(51, ok)...), []string{"Too many todos: 51 (max 50)"}},
		{"one in progress", list(item("a", "in_progress", "b"), ok), nil},
		{"two in progress", list(item("a", "in_progress", "b"), item("c", "in_progress", "d")), []string{"Only one todo can be in_progress at a time (found 2)"}},
		{"checks in order", `{"x":1,"todos":[1,` + item("a", "in_progress", "b") + `,` + item("c", "in_progress", "d") + `]}`,
			[]string{"Unknown field 'x'", "Todo at index 0: must be an object", "Only one todo can be in_progress at a time (found 2)"}},
		{"duplicate key: last wins", `{"todos":"x","todos":[]}`, nil},
		{"duplicate field: last wins", list(`{"content":"","content":"a","status":"pending","activeForm":"b"}`), nil},
		{"escaped key", `{"tod\u006fs":[]}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := Validate([]byte(tt.input), lim)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("rejected: %v", err)
				}
				if items == nil {
					t.Fatal("accepted but returned nil items")
				}
				return
			}
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("want validation error %q, got %v", tt.want, err)
			}
			if !reflect.DeepEqual(verr.Messages, tt.want) {
				t.Fatalf("messages\n got %q\nwant %q", verr.Messages, tt.want)
			}
			if verr.Error() != tt.want[0] {
				t.Fatalf("Error() = %q, want the first message", verr.Error())
			}
		})
	}
}

func TestValidateLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits Limits
		input  string
		want   string // "" accepted
	}{
		{"max items 2 ok", Limits{2, 200, 1}, list(item("a", "pending", "b"), item("a", "pending", "b")), ""},
		{"max items 2 over", Limits{2, 200, 1}, list(repeat(3, item("a", "pending", "b"))...), "Too many todos: 3 (max 2)"},
		{"max length 3 ok", Limits{50, 3, 1}, list(item("abc", "pending", "界界界")), ""},
		{"max length 3 over", Limits{50, 3, 1}, list(item("abcd", "pending", "b")), "Todo at index 0: content exceeds 3 characters"},
		{"no in-progress limit", Limits{50, 200, 0}, list(repeat(5, item("a", "in_progress", "b"))...), ""},
		{"in-progress limit 2 ok", Limits{50, 200, 2}, list(repeat(2, item("a", "in_progress", "b"))...), ""},
		{"in-progress limit 2 over", Limits{50, 200, 2}, list(repeat(3, item("a", "in_progress", "b"))...), "At most 2 todos can be in_progress at a time (found 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Validate([]byte(tt.input), tt.limits)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidateSyntaxErrors(t *testing.T) {
	for _, in := range []string{``, ` `, `{`, `{"todos":[}`, `{"todos":[]} x`, `{'todos':[]}`, `{"todos":[01]}`,
		`{"todos":["\x"]}`, "{\"todos\":[\"a\x01\"]}", `{"todos":[tru]}`, `{"todos":[1.]}`, `{"todos":[-]}`, `{"todos":[1e]}`,
		`{"todos":["\u12"]}`, `{"todos" []}`, `{"todos":[1 2]}`, `{"todos":[],}`, `{"todos":[1,]}`} {
		_, err := Validate([]byte(in), DefaultLimits())
		var syn *SyntaxError
		if !errors.As(err, &syn) {
			t.Errorf("%q: want a syntax error, got %v", in, err)
		}
	}
}

func TestValidateKeepsStringsExactly(t *testing.T) {
	in := `{"todos":[{"content":"  padded  \u00e9 \"q\" \\ / \ud83d\ude80 界","status":"pending","activeForm":"\t x"}]}`
	items, err := Validate([]byte(in), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := Item{Content: "  padded  é \"q\" \\ / 🚀 界", Status: "pending", ActiveForm: "\t x"}
	if items[0] != want {
		t.Fatalf("got %+v, want %+v", items[0], want)
	}
}

func TestLimitsFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	l, err := LimitsFromEnv(env(nil))
	if err != nil || l != DefaultLimits() {
		t.Fatalf("defaults: %+v %v", l, err)
	}
	l, err = LimitsFromEnv(env(map[string]string{EnvMaxItems: "20", EnvMaxContentLength: " 80 ", EnvMaxInProgress: "0"}))
	if err != nil || l != (Limits{20, 80, 0}) {
		t.Fatalf("set: %+v %v", l, err)
	}
	for _, bad := range []map[string]string{
		{EnvMaxItems: "abc"}, {EnvMaxItems: "0"}, {EnvMaxContentLength: "-1"}, {EnvMaxInProgress: "-1"}, {EnvMaxInProgress: "1.5"},
	} {
		_, err := LimitsFromEnv(env(bad))
		if err == nil {
			t.Errorf("%v: accepted", bad)
			continue
		}
		for k := range bad {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%v: error %q does not name the variable", bad, err)
			}
		}
	}
	// Too large is said as such, not as "1 or more" (issue 7 item 14).
	for _, big := range []string{"1000001", "99999999999999999999999"} {
		_, err := LimitsFromEnv(env(map[string]string{EnvMaxItems: big}))
		if err == nil || !strings.Contains(err.Error(), "at most 1000000") {
			t.Errorf("%s: %v", big, err)
		}
	}
	if _, err := LimitsFromEnv(env(map[string]string{EnvMaxItems: "1000000"})); err != nil {
		t.Errorf("the largest limit: %v", err)
	}
}
