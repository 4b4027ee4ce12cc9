package task

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func compile(t testing.TB, name string, schema json.RawMessage) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func schemaAccepts(s *jsonschema.Schema, input []byte) bool {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(input))
	if err != nil {
		return false
	}
	return s.Validate(inst) == nil
}

var agreementLimits = []todo.Limits{todo.DefaultLimits(), {MaxItems: 3, MaxContentLength: 4, MaxInProgress: 1}, {MaxItems: 4, MaxContentLength: 2, MaxInProgress: 0}}

// validator is one tool's static check with its schema, per limits.
type validator struct {
	name    string
	schemas []*jsonschema.Schema
	check   func(input []byte, l todo.Limits) error
}

func validators(t testing.TB) []validator {
	var vs []validator
	add := func(name string, schema func(todo.Limits) json.RawMessage, check func([]byte, todo.Limits) error) {
		v := validator{name: name, check: check}
		for _, l := range agreementLimits {
			v.schemas = append(v.schemas, compile(t, name, schema(l)))
		}
		vs = append(vs, v)
	}
	add(CreateName, CreateSchema, func(b []byte, l todo.Limits) error { _, err := ValidateCreate(b, l); return err })
	add(UpdateName, UpdateSchema, func(b []byte, l todo.Limits) error { _, err := ValidateUpdate(b, l); return err })
	add(GetName, func(todo.Limits) json.RawMessage { return GetSchema() }, func(b []byte, _ todo.Limits) error { _, err := ValidateGet(b); return err })
	add(ListName, func(todo.Limits) json.RawMessage { return ListSchema() }, func(b []byte, _ todo.Limits) error {
		// No input at all, or null, is {} for a tool without input (as for
		// TodoRead); the schema speaks of objects only.
		if len(bytes.TrimSpace(b)) == 0 || string(bytes.TrimSpace(b)) == "null" {
			return fmt.Errorf("not an object")
		}
		return ValidateList(b)
	})
	return vs
}

func checkAgreement(t *testing.T, vs []validator, input []byte) {
	t.Helper()
	for _, v := range vs {
		for i, l := range agreementLimits {
			err := v.check(input, l)
			if got := schemaAccepts(v.schemas[i], input); got != (err == nil) {
				t.Fatalf("%s, limits %+v, input %q: schema accepts=%v, validator says %v", v.name, l, input, got, err)
			}
		}
	}
}

// agreementCorpus is inputs for all four tools: each is checked by every
// validator, so most are rejections of the others.
func agreementCorpus() []string {
	blanks := []string{"", " ", "\u00a0", "\u200b", "\ufeff", "\u3000", " a ", "abcd", "abcde", "界界界", "a\xed\xa0\x80", "🚀🚀"}
	var out []string
	for _, s := range blanks {
		q, _ := json.Marshal(s)
		out = append(out,
			`{"subject":`+string(q)+`,"description":"d"}`,
			`{"subject":"ok","description":`+string(q)+`}`,
			`{"subject":"ok","description":"","activeForm":`+string(q)+`}`,
			`{"taskId":"1","owner":`+string(q)+`}`,
			`{"taskId":"1","subject":`+string(q)+`}`,
			`{"taskId":`+string(q)+`}`,
		)
	}
	return append(out,
		`{}`, `[]`, `null`, `"x"`, `1`, `{"a":1}`, ``, ` `, `{"subject":`, `{}x`,
		`{"subject":"a","description":"b","metadata":{}}`, `{"subject":"a","description":"b","metadata":{"k":null,"j":[1,{"x":"y"}]}}`,
		`{"subject":"a","description":"b","metadata":null}`, `{"subject":"a","description":"b","metadata":[]}`, `{"subject":"a","description":"b","metadata":"x"}`,
		`{"subject":"a","description":1}`, `{"subject":1,"description":"b"}`, `{"subject":"a","description":"b","x":null}`,
		`{"subject":"a","subject":"","description":"b"}`, `{"subject":"","subject":"a","description":"b"}`,
		`{"taskId":"1"}`, `{"taskId":1}`, `{"taskId":null}`, `{"taskId":"1","status":"pending"}`, `{"taskId":"1","status":"deleted"}`,
		`{"taskId":"1","status":"done"}`, `{"taskId":"1","status":1}`, `{"taskId":"1","status":null}`,
		`{"taskId":"1","addBlocks":[]}`, `{"taskId":"1","addBlocks":["2","3"]}`, `{"taskId":"1","addBlocks":[2]}`, `{"taskId":"1","addBlocks":"2"}`,
		`{"taskId":"1","addBlockedBy":["2",null]}`, `{"taskId":"1","addBlockedBy":[["2"]]}`, `{"taskId":"1","metadata":{"a":null}}`,
		`{"taskId":"1","owner":null}`, `{"taskId":"1","owner":1}`, `{"taskId":"1","description":null}`, `{"taskId":"1","x":1}`,
		`{"taskId":"1","subject":"a","description":"b","activeForm":"c","status":"in_progress","owner":"me","metadata":{"k":1},"addBlocks":["2"],"addBlockedBy":["3"]}`,
		`{"subject":"a","description":"`+strings.Repeat("x", MaxDescriptionLength)+`"}`,
		`{"subject":"a","description":"`+strings.Repeat("x", MaxDescriptionLength+1)+`"}`,
		`{"subject":"a","description":"`+strings.Repeat("é", MaxDescriptionLength)+`"}`,
		"{\"subject\":\"a\xff\",\"description\":\"\"}",
	)
}

func TestSchemasAgreeWithValidators(t *testing.T) {
	t.Parallel()
	vs := validators(t)
	for i, in := range agreementCorpus() {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkAgreement(t, vs, []byte(in)) })
	}
}

// FuzzTaskTools holds the schemas equal to the validators on any input,
// and the tools to their discipline: no panic, and a rejected call changes
// nothing.
func FuzzTaskTools(f *testing.F) {
	for _, in := range agreementCorpus() {
		f.Add([]byte(in))
	}
	vs := validators(f)
	reg, store := newTools(f, Options{Limits: agreementLimits[1]})
	for _, s := range []string{"a", "b"} {
		reg.Execute(context.Background(), "toolu_s", CreateName, json.RawMessage(`{"subject":"`+s+`","description":""}`))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		checkAgreement(t, vs, input)
		for _, name := range Names() {
			before := store.Snapshot()
			res := reg.Execute(context.Background(), "toolu_f", name, input)
			if res.IsError && !reflect.DeepEqual(before, store.Snapshot()) {
				t.Fatalf("%s: a rejected call changed the plan", name)
			}
		}
	})
}

func TestSchemaShape(t *testing.T) {
	t.Parallel()
	var s map[string]any
	if err := json.Unmarshal(UpdateSchema(todo.Limits{MaxItems: 7, MaxContentLength: 9, MaxInProgress: 2}), &s); err != nil {
		t.Fatal(err)
	}
	props := s["properties"].(map[string]any)
	var names []string
	for k := range props {
		names = append(names, k)
	}
	if len(names) != 9 || fmt.Sprint(s["required"]) != "[taskId]" || s["additionalProperties"] != false {
		t.Fatalf("%v", s)
	}
	if got := fmt.Sprint(props["status"].(map[string]any)["enum"]); got != "[pending in_progress completed deleted]" {
		t.Fatal(got)
	}
	if props["subject"].(map[string]any)["maxLength"] != 9.0 {
		t.Fatal(props["subject"])
	}
	c := string(CreateSchema(todo.DefaultLimits()))
	if !strings.Contains(c, `"required":["subject","description"]`) || !strings.Contains(c, `\u00a0`) {
		t.Fatal(c)
	}
}

// TestSchemaAgreementRandom checks the agreement on inputs put together at
// random (a fixed seed) from the pieces the rules care about.
func TestSchemaAgreementRandom(t *testing.T) {
	t.Parallel()
	vs := validators(t)
	r := rand.New(rand.NewPCG(18, 2026))
	keys := []string{"subject", "description", "activeForm", "metadata", "taskId", "status", "owner", "addBlocks", "addBlockedBy", "x"}
	values := []string{`""`, `" "`, `"a"`, `"abcde"`, `"\u200b"`, `"\u00a0b"`, `"pending"`, `"deleted"`, `"done"`, `1`, `null`, `true`,
		`{}`, `{"k":null}`, `{"k":[1,2]}`, `[]`, `["1"]`, `["1",2]`, `[null]`, `"界界界"`, `"in_progress"`, `"abcdefghijkl"`}
	n := 1500
	if testing.Short() {
		n = 300
	}
	for range n {
		var b strings.Builder
		b.WriteByte('{')
		for i := range r.IntN(5) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", keys[r.IntN(len(keys))], values[r.IntN(len(values))])
		}
		b.WriteByte('}')
		checkAgreement(t, vs, []byte(b.String()))
	}
}

// TestTemplatesAreAccepted: each template Tab offers, with only its first
// empty string filled in (where the cursor goes), is accepted: no optional
// field is offered empty to be refused as "cannot be empty".
func TestTemplatesAreAccepted(t *testing.T) {
	t.Parallel()
	limits := todo.DefaultLimits()
	validate := map[string]func([]byte) error{
		CreateName: func(b []byte) error { _, err := ValidateCreate(b, limits); return err },
		UpdateName: func(b []byte) error { _, err := ValidateUpdate(b, limits); return err },
		GetName:    func(b []byte) error { _, err := ValidateGet(b); return err },
	}
	for name, tmpl := range Templates() {
		t.Run(name, func(t *testing.T) {
			arg := strings.Trim(tmpl, "'")
			filled := strings.Replace(arg, `""`, `"1"`, 1)
			check, ok := validate[name]
			if !ok {
				t.Fatalf("no validator for %s", name)
			}
			if err := check([]byte(filled)); err != nil {
				t.Fatalf("%s %s: %v", name, filled, err)
			}
		})
	}
}
