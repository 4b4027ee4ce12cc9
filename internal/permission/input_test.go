package permission

import (
	"encoding/json"
	"testing"
)

// inputs are Bash inputs of every shape: the usual ones, and those where
// encoding/json's rules (names matched without regard to case, the last
// of a repeated name, null and other types) decide the command.
var inputs = []string{
	`{"command":"ls"}`, ` {"command" : "ls -l" , "timeout_ms": 5} `, `{"description":"x","command":"a\nb\u0000c\"d"}`,
	`{"command":"ls","command":"rm x"}`, `{"COMMAND":"rm x"}`, `{"Command":"rm x","command":"ls"}`, `{"command":"ls","Command":"rm x"}`,
	`{"comm\u0061nd":"rm x"}`, `{"command":5}`, `{"command":null}`, `{"command":"rm x","command":null}`, `{"command":"ls","command":5}`,
	`{"command":"rm x"} x`, `{"command":"rm x"`, `[{"command":"rm x"}]`, `"rm x"`, `null`, ``, `{}`, `{"x":{"command":"rm x"}}`,
	`{"command":"\ud800 rm \xff"}`, "{\"command\":\"a\xffb\"}", `{"ſommand":"rm x"}`, `{"commanD":"ls"}`, `{"command":"ls","x":[1,2,{"a":null}]}`,
	`{"command":"ls",}`, `{"command":'ls'}`, `{"command":"ls"}{"command":"rm"}`,
}

// TestBashCommand: the command read from a Bash input is the one
// encoding/json decodes.
func TestBashCommand(t *testing.T) {
	for _, in := range inputs {
		checkBashCommand(t, in)
	}
}

func checkBashCommand(t *testing.T, in string) {
	t.Helper()
	var want struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(in), &want)
	if got := bashCommand(json.RawMessage(in)); got != want.Command {
		t.Fatalf("%q: command %q, encoding/json decodes %q", in, got, want.Command)
	}
}

// FuzzBashCommand: TestBashCommand on any input.
func FuzzBashCommand(f *testing.F) {
	for _, in := range inputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkBashCommand(t, in)
	})
}
