package todo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles TodoWrite's input_schema with a real JSON Schema
// (draft 2020-12) validator.
func compileSchema(t testing.TB, limits Limits) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(WriteSchema(limits)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("todowrite.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("todowrite.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// schemaAccepts is the schema's verdict: text that is not JSON is rejected.
func schemaAccepts(s *jsonschema.Schema, input []byte) bool {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return false
	}
	return s.Validate(inst) == nil
}

// agreementLimits are checked on every input: the defaults, and small limits
// a fuzzer can reach.
var agreementLimits = []Limits{DefaultLimits(), {MaxItems: 3, MaxContentLength: 4, MaxInProgress: 1}, {MaxItems: 4, MaxContentLength: 3, MaxInProgress: 0}, {MaxItems: 5, MaxContentLength: 2, MaxInProgress: 2}}

func checkAgreement(t *testing.T, schemas []*jsonschema.Schema, input []byte) {
	t.Helper()
	for i, lim := range agreementLimits {
		items, err := Validate(input, lim)
		handler := err == nil
		if got := schemaAccepts(schemas[i], input); got != handler {
			t.Fatalf("limits %+v, input %q: schema accepts=%v, handler accepts=%v (%v)", lim, input, got, handler, err)
		}
		if handler {
			// Accepted input round-trips through TodoRead unchanged.
			// Decode generically first: with duplicate keys the last wins.
			var generic any
			if err := json.Unmarshal(input, &generic); err != nil {
				t.Fatalf("accepted but encoding/json cannot decode %q: %v", input, err)
			}
			canonical, _ := json.Marshal(generic)
			var want struct{ Todos []Item }
			if err := json.Unmarshal(canonical, &want); err != nil {
				t.Fatalf("accepted %q but it is not a todo list: %v", input, err)
			}
			if !reflect.DeepEqual(nonNil(items), nonNil(want.Todos)) {
				t.Fatalf("input %q decoded to %+v, encoding/json says %+v", input, items, want.Todos)
			}
		}
	}
}

func nonNil(items []Item) []Item {
	if items == nil {
		return []Item{}
	}
	return items
}

func schemas(t testing.TB) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, lim := range agreementLimits {
		out = append(out, compileSchema(t, lim))
	}
	return out
}

// agreementCorpus is the hand-written part of the corpus; the fuzz seed
// corpus in testdata/fuzz adds to it.
func agreementCorpus() []string {
	ok := item("ab", "pending", "cd")
	return []string{
		`{"todos":[]}`, `{}`, `[]`, `null`, `"x"`, `{"todos":null}`, `{"todos":{}}`, `{"todos":[],"a":1}`,
		list(ok), list(ok, ok, ok), list(ok, ok, ok, ok), list(ok, ok, ok, ok, ok, ok),
		list(item("abcd", "pending", "x")), list(item("abcde", "pending", "x")), list(item("界界界", "pending", "x")),
		list(item("", "pending", "x")), list(item(" ", "pending", "x")), list(item("\u00a0", "pending", "x")),
		list(item("\u0085", "pending", "x")), list(item("\ufeff", "pending", "x")), list(item("\u200b", "pending", "x")),
		list(item("\u3000", "pending", "x")), list(item("\u180e", "pending", "x")), list(item(" a ", "pending", "x")),
		list(item("a", "in_progress", "b"), item("c", "in_progress", "d")),
		list(item("a", "in_progress", "b"), item("c", "in_progress", "d"), item("e", "in_progress", "f")),
		list(item("a", "done", "b")), list(item("a", "", "b")), list(`{"content":"a","status":1,"activeForm":"b"}`),
		list(`{"content":"a","activeForm":"b"}`), list(`{"content":"a","status":"pending"}`), list(`{"status":"pending","activeForm":"b"}`),
		list(`{"content":"a","status":"pending","activeForm":"b","x":null}`), list(`1`), list(`[]`), list(`null`),
		list(`{"content":"a","status":"in_progress","activeForm":"b"}`, `"in_progress"`),
		`{"todos":[{"content":"a\ud800","status":"pending","activeForm":"b"}]}`,
		"{\"todos\":[{\"content\":\"a\xff\xfe\",\"status\":\"pending\",\"activeForm\":\"b\"}]}",
		`{"todos":[{"content":"\ud83d\ude80\ud83d\ude80","status":"pending","activeForm":"b"}]}`,
		`{"todos":[],"todos":"x"}`, `{"todos":"x","todos":[]}`, `{"todos":[{"content":"a","status":"x","status":"pending","activeForm":"b"}]}`,
		`{"todos":[`, `{"todos":[]}x`, ` {"todos" : [ ] } `, "{\"todos\":[\"\x01\"]}",
	}
}

func TestSchemaAgreesWithHandler(t *testing.T) {
	s := schemas(t)
	for i, in := range agreementCorpus() {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkAgreement(t, s, []byte(in)) })
	}
}

func FuzzTodoWrite(f *testing.F) {
	for _, in := range agreementCorpus() {
		f.Add([]byte(in))
	}
	s := schemas(f)
	reg, store := newTools(f, DefaultLimits())
	f.Fuzz(func(t *testing.T, input []byte) {
		checkAgreement(t, s, input)
		// The handler never fails the process and changes the store only on success.
		before := store.Snapshot()
		res := reg.Execute(context.Background(), "toolu_f", WriteName, input)
		if res.ToolUseID != "toolu_f" {
			t.Fatalf("tool_use_id %q", res.ToolUseID)
		}
		if res.IsError && !reflect.DeepEqual(before, store.Snapshot()) {
			t.Fatal("rejected write changed the store")
		}
	})
}

func TestSchemaShape(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(WriteSchema(Limits{MaxItems: 7, MaxContentLength: 9, MaxInProgress: 2}), &s); err != nil {
		t.Fatal(err)
	}
	todos := s["properties"].(map[string]any)["todos"].(map[string]any)
	itemSchema := todos["items"].(map[string]any)
	content := itemSchema["properties"].(map[string]any)["content"].(map[string]any)
	checks := map[string][2]any{
		"$schema":                 {s["$schema"], "https://json-schema.org/draft/2020-12/schema"},
		"required":                {fmt.Sprint(s["required"]), "[todos]"},
		"additionalProperties":    {s["additionalProperties"], false},
		"item additional":         {itemSchema["additionalProperties"], false},
		"item required":           {fmt.Sprint(itemSchema["required"]), "[content status activeForm]"},
		"maxItems":                {todos["maxItems"], 7.0},
		"maxContains":             {todos["maxContains"], 2.0},
		"minContains":             {todos["minContains"], 0.0},
		"content minLength":       {content["minLength"], 1.0},
		"content maxLength":       {content["maxLength"], 9.0},
		"status enum":             {fmt.Sprint(itemSchema["properties"].(map[string]any)["status"].(map[string]any)["enum"]), "[pending in_progress completed]"},
		"contains status const":   {todos["contains"].(map[string]any)["properties"].(map[string]any)["status"].(map[string]any)["const"], "in_progress"},
		"no in-progress limit: —": {strings.Contains(string(WriteSchema(Limits{7, 9, 0})), "maxContains"), false},
	}
	for name, c := range checks {
		if !reflect.DeepEqual(c[0], c[1]) {
			t.Errorf("%s: got %v, want %v", name, c[0], c[1])
		}
	}
	if !bytes.Contains(WriteSchema(DefaultLimits()), []byte(`\u00a0`)) {
		t.Error("invisible pattern characters are not escaped in the schema text")
	}
	if got := string(ReadSchema()); got != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Errorf("TodoRead schema: %s", got)
	}
}

// TestBlankClassAgreesWithIsBlank proves the schema's pattern and isBlank
// agree on every rune: blank is white space or default-ignorable.
func TestBlankClassAgreesWithIsBlank(t *testing.T) {
	class := regexp.MustCompile("^[" + blankClass + "]$")
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		if isBlank(s) != isBlankRune(r) || class.MatchString(s) != isBlankRune(r) {
			t.Fatalf("rune %U: isBlank=%v class=%v isBlankRune=%v", r, isBlank(s), class.MatchString(s), isBlankRune(r))
		}
		if unicode.IsSpace(r) && !isBlankRune(r) {
			t.Fatalf("rune %U: white space is not blank", r)
		}
	}
	sch := compileSchema(t, DefaultLimits())
	probe := []rune{0xad, 0x34f, 0x600, 0x61c, 0x115f, 0x180e, 0x200b, 0x200d, 0x2060, 0x2064, 0x3164, 0xfe0f, 0xfeff, 0xfff9, 0xffa0, 0x1d173, 0xe0001, 0xe007f, 0xe01ef, 0xe0fff}
	for r := rune(1); r < 0x3001; r++ {
		probe = append(probe, r)
	}
	for _, r := range probe {
		in, _ := json.Marshal(map[string]any{"todos": []Item{{Content: string(r), Status: "pending", ActiveForm: "x"}}})
		if schemaAccepts(sch, in) == isBlankRune(r) {
			t.Fatalf("rune %U: schema accepts=%v but blank=%v", r, !isBlankRune(r), isBlankRune(r))
		}
	}
}

// TestZeroWidthContentIsBlank holds issue 7 item 8: zero-width-only text is
// empty text, for the validator and the published schema alike.
func TestZeroWidthContentIsBlank(t *testing.T) {
	sch := compileSchema(t, DefaultLimits())
	for _, s := range []string{"\u200b", "\ufeff", "\u2060", "\u200b\u200c\u200d", " \u200b\t\ufeff ", "\u00ad", "\U000e0041\U000e007f", "\ufe0f", "\u3164"} {
		for _, field := range []string{"content", "activeForm"} {
			it := map[string]string{"content": "ok", "activeForm": "ok", "status": "pending"}
			it[field] = s
			in, _ := json.Marshal(map[string]any{"todos": []any{it}})
			_, err := Validate(in, DefaultLimits())
			want := fmt.Sprintf("Todo at index 0: %s is required and cannot be empty", field)
			if err == nil || err.Error() != want {
				t.Errorf("%s=%+q: %v, want %q", field, s, err, want)
			}
			if schemaAccepts(sch, in) {
				t.Errorf("%s=%+q: the schema accepts it", field, s)
			}
		}
	}
	for _, s := range []string{"a\u200b", "\u200bb", "\u0600", "\u2800x", "👍🏽"} {
		in, _ := json.Marshal(map[string]any{"todos": []any{map[string]string{"content": s, "activeForm": "x", "status": "pending"}}})
		if _, err := Validate(in, DefaultLimits()); err != nil || !schemaAccepts(sch, in) {
			t.Errorf("%+q: %v (schema accepts %v)", s, err, schemaAccepts(sch, in))
		}
	}
}

func TestValidationErrorUnwrap(t *testing.T) {
	_, err := Validate([]byte(`{}`), DefaultLimits())
	var v *ValidationError
	if !errors.As(err, &v) {
		t.Fatal(err)
	}
}

var updateBlankClass = flag.Bool("update-blank-class", false, "rewrite blank_class.go from buildBlankClass")

// TestBlankClassIsGenerated holds the generated blankClass equal to what
// buildBlankClass derives from the predicate (go generate rewrites it).
func TestBlankClassIsGenerated(t *testing.T) {
	want := buildBlankClass()
	if *updateBlankClass {
		src := "// Code generated by go generate (TestBlankClassIsGenerated); DO NOT EDIT.\n\npackage todo\n\n" +
			"// blankClass is the character class of the blank characters (see\n// buildBlankClass, which derives it from isBlankRune).\n" +
			"const blankClass = " + strconv.QuoteToASCII(want) + "\n"
		if err := os.WriteFile("blank_class.go", []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if blankClass != want {
		t.Fatalf("blank_class.go is out of date with isBlankRune: run go generate ./tools/todo")
	}
}
