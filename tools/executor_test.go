package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// echoTool answers with its input; its shell form shouts.
type echoTool struct{}

func (echoTool) Definition() Definition {
	return Definition{Name: "Echo", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (echoTool) Call(_ context.Context, input json.RawMessage) (Result, error) {
	return Result{Content: string(input), Meta: len(input)}, nil
}

func (echoTool) ShellInput(args []string) (json.RawMessage, *ShellForm) {
	if len(args) != 1 {
		return nil, &ShellForm{Stderr: "Usage: Echo WORD", ExitCode: 2}
	}
	b, _ := json.Marshal(map[string]string{"word": args[0]})
	return b, nil
}

func (echoTool) ShellForm(args []string, res ToolResult) ShellForm {
	return ShellForm{Stdout: strings.ToUpper(args[0]) + strings.Repeat("!", res.Meta.(int)-12)}
}

// countingOffloader offloads contents of limit bytes or more.
type countingOffloader struct {
	limit int
	calls *int
}

func (o countingOffloader) Offload(res ToolResult) ToolResult {
	*o.calls++
	if res.Offloaded != nil || len(res.Content) < o.limit {
		return res
	}
	res.Offloaded = &Offloaded{Path: "/f/" + res.ToolUseID, Bytes: int64(len(res.Content))}
	res.Content = "pointer " + res.ToolUseID
	return res
}

func TestExecutor(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Add(echoTool{}); err != nil {
		t.Fatal(err)
	}
	reg.Register(Definition{Name: "Plain"}, func(_ context.Context, in json.RawMessage) (Result, error) {
		return TextResult("plain " + string(in) + "\n"), nil
	})
	calls := 0
	ex := NewExecutor(reg, countingOffloader{limit: 20, calls: &calls})
	ctx := context.Background()

	t.Run("execute applies the policy", func(t *testing.T) {
		res := ex.Execute(ctx, "toolu_1", "Echo", json.RawMessage(`{"word":"a long word indeed"}`))
		if res.Offloaded == nil || res.Content != "pointer toolu_1" {
			t.Fatalf("%+v", res)
		}
		if res := ex.Execute(ctx, "toolu_2", "Echo", json.RawMessage(`{}`)); res.Offloaded != nil || res.Content != "{}" {
			t.Fatalf("%+v", res)
		}
	})
	tests := []struct {
		name       string
		tool       string
		args       []string
		stdout     string
		stderr     string
		code       int
		noCall     bool
		offloaded  bool
		wantResult string
	}{
		{"own form", "Echo", []string{"hi"}, "HI!", "", 0, false, false, `{"word":"hi"}`},
		{"own usage", "Echo", nil, "", "Usage: Echo WORD", 2, true, false, ""},
		{"own form offloaded as shown", "Echo", []string{"a-word-long-enough"}, "pointer toolu_x", "", 0, false, true, `{"word":"a-word-long-enough"}`},
		{"generic", "Plain", []string{`{ "a" : 1 }`}, `plain {"a":1}`, "", 0, false, false, "plain {\"a\":1}\n"},
		{"generic no argument", "Plain", nil, "plain {}", "", 0, false, false, "plain {}\n"},
		{"generic not json", "Plain", []string{"{"}, "", "Error: Invalid JSON format\nunexpected end of JSON input\nUsage: Plain '<JSON input>'", 1, true, false, ""},
		{"generic two arguments", "Plain", []string{"1", "2"}, "", "Error: An extra argument after the JSON: \"2\"\nThe JSON is the only argument; remove the rest\nUsage: Plain '<JSON input>'", 1, true, false, ""},
		{"unknown tool", "Nope", nil, "", "Error: Tool 'Nope' not found", 1, false, false, "Tool 'Nope' not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input, bad := ex.ShellInput(tt.tool, tt.args)
			var call ShellCall
			if bad != nil {
				if !bad.NoCall {
					t.Fatal("a refused input must say NoCall")
				}
				call = ShellCall{Form: *bad}
			} else {
				call = ex.ExecuteShell(ctx, "toolu_x", tt.tool, input, tt.args)
			}
			f := call.Form
			if f.Stdout != tt.stdout || f.Stderr != tt.stderr || f.ExitCode != tt.code || f.NoCall != tt.noCall || (f.Offloaded != nil) != tt.offloaded {
				t.Fatalf("%+v", f)
			}
			if tt.noCall {
				return
			}
			if call.Use == nil || call.Use.ID != "toolu_x" || call.Result == nil || call.Result.Content != tt.wantResult {
				t.Fatalf("call %+v result %+v", call.Use, call.Result)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	reg := NewRegistry()
	reg.Register(Definition{Name: "Plain"}, func(context.Context, json.RawMessage) (Result, error) { return Result{}, nil })
	if got := reg.Summary("Plain", json.RawMessage("{\"a\":\n1}")); got != `Plain({"a": 1})` {
		t.Fatalf("%q", got)
	}
}

// wholeTool's shell form is a text a person asked to read (Whole).
type wholeTool struct{ echoTool }

func (wholeTool) Definition() Definition {
	return Definition{Name: "Whole", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (wholeTool) ShellForm(args []string, _ ToolResult) ShellForm {
	return ShellForm{Stdout: strings.Repeat(args[0]+"\n", 5), Whole: true}
}

// TestExecuteShellKeepsAWholeFormsText: a form a person asked to read is
// offloaded as any (the file, the pointer), and its text is kept in Full
// for an interactive shell to show (issue 29, item 14); a form that is not
// Whole keeps none.
func TestExecuteShellKeepsAWholeFormsText(t *testing.T) {
	reg := NewRegistry()
	for _, tool := range []Tool{echoTool{}, wholeTool{}} {
		if err := reg.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	calls := 0
	ex := NewExecutor(reg, countingOffloader{limit: 20, calls: &calls})
	in, _ := ex.ShellInput("Whole", []string{"item"})
	f := ex.ExecuteShell(context.Background(), "toolu_w", "Whole", in, []string{"item"}).Form
	if f.Offloaded == nil || f.Stdout != "pointer toolu_w" || f.Full != strings.Repeat("item\n", 5) {
		t.Fatalf("%+v", f)
	}
	in, _ = ex.ShellInput("Echo", []string{"a-word-long-enough"})
	if f := ex.ExecuteShell(context.Background(), "toolu_e", "Echo", in, []string{"a-word-long-enough"}).Form; f.Offloaded == nil || f.Full != "" {
		t.Fatalf("%+v", f)
	}
}
