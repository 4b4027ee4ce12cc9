package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

// Example runs todo-shell's tools in your own agent loop on
// anthropic-sdk-go: the registry's definitions go out as the request's
// tools, each tool_use comes back through the executor (which offloads long
// results), and the loop ends when the model stops asking for tools. A
// stand-in for the Messages API on loopback plays the model, so the example
// runs offline.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(fakeModel))
	defer api.Close()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)

	set, err := toolset.New(toolset.Options{
		Limits:      todo.DefaultLimits(),
		Offload:     offload.Config{Dir: dir, Session: "example", Threshold: offload.DefaultThreshold},
		BashTimeout: time.Minute,
	})
	if err != nil {
		panic(err)
	}
	client := anthropic.NewClient(option.WithAPIKey("key"), option.WithBaseURL(api.URL))
	params := anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet5_5,
		MaxTokens: 1024,
		Tools:     toolParams(set.Executor.Definitions()),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Plan the release."))},
	}
	ctx := context.Background()
	for {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			panic(err)
		}
		params.Messages = append(params.Messages, msg.ToParam())
		var results []anthropic.ContentBlockParamUnion
		for _, block := range msg.Content {
			switch b := block.AsAny().(type) {
			case anthropic.TextBlock:
				fmt.Println("model:", b.Text)
			case anthropic.ToolUseBlock:
				res := set.Executor.Execute(ctx, b.ID, b.Name, b.Input)
				fmt.Printf("%s -> %s\n", set.Registry.Summary(b.Name, b.Input), res.Content)
				results = append(results, anthropic.NewToolResultBlock(res.ToolUseID, res.Content, res.IsError))
			}
		}
		if msg.StopReason != anthropic.StopReasonToolUse {
			break
		}
		params.Messages = append(params.Messages, anthropic.NewUserMessage(results...))
	}
	for _, it := range set.Store.Snapshot().Items {
		fmt.Printf("%s: %s\n", it.Status, it.Content)
	}
	// Output:
	// TodoWrite(2 todos) -> {"success":true,"count":2}
	// model: Planned.
	// in_progress: Tag the release
	// pending: Write the notes
}

// toolParams turns the registry's definitions into the SDK's tool
// parameters, schema and all.
func toolParams(defs []tools.Definition) []anthropic.ToolUnionParam {
	out := make([]anthropic.ToolUnionParam, 0, len(defs))
	for _, d := range defs {
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			panic(err)
		}
		in := anthropic.ToolInputSchemaParam{Properties: schema["properties"], ExtraFields: map[string]any{}}
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				in.Required = append(in.Required, fmt.Sprint(r))
			}
		}
		for k, v := range schema {
			if k != "type" && k != "properties" && k != "required" {
				in.ExtraFields[k] = v
			}
		}
		tool := anthropic.ToolParam{Name: d.Name, Description: anthropic.String(d.Description), InputSchema: in}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out
}

// fakeModel answers the first request with a TodoWrite call and the one
// that carries its result with text.
func fakeModel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
		} `json:"messages"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	last := req.Messages[len(req.Messages)-1].Content
	w.Header().Set("Content-Type", "application/json")
	if len(last) > 0 && last[0].Type == "tool_result" {
		fmt.Fprint(w, `{"id":"msg_2","type":"message","role":"assistant","model":"m","stop_reason":"end_turn",`+
			`"content":[{"type":"text","text":"Planned."}],"usage":{"input_tokens":1,"output_tokens":1}}`)
		return
	}
	fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"m","stop_reason":"tool_use",`+
		`"content":[{"type":"tool_use","id":"toolu_01","name":"TodoWrite","input":{"todos":[`+
		`{"content":"Tag the release","activeForm":"Tagging the release","status":"in_progress"},`+
		`{"content":"Write the notes","activeForm":"Writing the notes","status":"pending"}]}}],`+
		`"usage":{"input_tokens":1,"output_tokens":1}}`)
}
