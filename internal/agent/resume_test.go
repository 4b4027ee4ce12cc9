package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// resumed returns a second agent over e's registry whose conversation is
// read back from e's transcript.
func resumed(t *testing.T, e *env, api *fakeAPI) (*Agent, []string) {
	t.Helper()
	var warnings []string
	msgs, err := ReadTranscript(bytes.NewReader(e.transcript.Bytes()), func(w string) { warnings = append(warnings, w) })
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{
		Client:    anthropic.NewClient(option.WithAPIKey("k"), option.WithBaseURL(api.srv.URL)),
		Model:     string(DefaultModel),
		MaxTokens: 1024, MaxTurns: 50,
		Tools:      e.reg,
		Transcript: e.transcript,
	})
	if err != nil {
		t.Fatal(err)
	}
	a.Resume(msgs)
	return a, warnings
}

// TestResumeCarriesConversation: a conversation read back from its
// transcript goes out whole in the next request, as the first agent sent
// it, followed by the new prompt (without a second first-prompt reminder).
func TestResumeCarriesConversation(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	e := newEnv(t,
		toolUse(block{text: "Planning."}, todoCall("toolu_plan", [3]string{"Count", "Counting", "in_progress"})),
		say("There are three."),
	)
	if _, err := e.agent.Run(context.Background(), "count things", nil); err != nil {
		t.Fatal(err)
	}
	first := e.agent.Messages()

	api2 := newFakeAPI(t, say("Still three."))
	a, warnings := resumed(t, e, api2)
	if len(warnings) > 0 {
		t.Fatalf("warnings %q", warnings)
	}
	if _, err := a.Run(context.Background(), "and now?", nil); err != nil {
		t.Fatal(err)
	}
	body := api2.raw[0]
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Messages) != len(first)+1 {
		t.Fatalf("second request has %d messages, want %d (the first conversation and the prompt)", len(req.Messages), len(first)+1)
	}
	for i, m := range first {
		if !jsonEqual(t, m, req.Messages[i]) {
			t.Fatalf("message %d differs:\n sent first: %s\n resumed:    %s", i, m, req.Messages[i])
		}
	}
	last := userBlocks(api2.requests()[0])
	if !hasText(last, "and now?") || hasText(last, "plan it with TodoWrite") {
		t.Fatalf("new prompt %v", last)
	}
	// The resumed messages were not written to the transcript again.
	if n := strings.Count(e.transcript.String(), `"count things"`); n != 1 {
		t.Fatalf("first prompt written %d times", n)
	}
}

// TestResumeCutTurn: a transcript that ends after a tool_use (the process
// died while the tool ran) gets an interrupted tool_result for it, and a
// damaged line is skipped with a warning.
func TestResumeCutTurn(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	e := newEnv(t, toolUse(bashCall("toolu_a", "echo a"), bashCall("toolu_b", "echo b")))
	e.api.script(toolUse(bashCall("toolu_a", "echo a"), bashCall("toolu_b", "echo b")))
	// Write the first request and the response, as if killed then.
	e.agent.messages = append(e.agent.messages, userMessage([]anthropic.ContentBlockParamUnion{textBlock("do it")}))
	e.agent.prompted = true
	msg, err := e.agent.stream(context.Background(), func(Event) {})
	if err != nil {
		t.Fatal(err)
	}
	e.agent.messages = append(e.agent.messages, responseParam(msg))
	e.agent.logResponse(msg)
	e.transcript.WriteString(`{"type":"request","message":{"role":"us` + "\n")

	api2 := newFakeAPI(t, say("ok"))
	a, warnings := resumed(t, e, api2)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 3 skipped") {
		t.Fatalf("warnings %q", warnings)
	}
	if _, err := a.Run(context.Background(), "go on", nil); err != nil {
		t.Fatal(err)
	}
	msgs := api2.requests()[0]["messages"].([]any)
	if len(msgs) != 4 {
		t.Fatalf("%d messages: %v", len(msgs), msgs)
	}
	results := msgs[2].(map[string]any)["content"].([]any)
	if len(results) != 2 {
		t.Fatalf("results %v", results)
	}
	for i, id := range []string{"toolu_a", "toolu_b"} {
		r := results[i].(map[string]any)
		if r["type"] != "tool_result" || r["tool_use_id"] != id || r["is_error"] != true || resultText(r) != InterruptedResult {
			t.Fatalf("result %d: %v", i, r)
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// TestResumeEstimatesTheContext: a resumed conversation says how full the
// window is before its first request (the prompt's ctx), from its size at
// 4 bytes a token.
func TestResumeEstimatesTheContext(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	e := newEnv(t, say(strings.Repeat("long answer ", 4000)))
	if _, err := e.agent.Run(context.Background(), "talk", nil); err != nil {
		t.Fatal(err)
	}
	a, _ := resumed(t, e, newFakeAPI(t))
	size := 0
	for _, m := range a.Messages() {
		size += len(m)
	}
	want := float64(size/4) / DefaultContextWindow
	if got := a.ContextUsed(); got != want || got == 0 {
		t.Fatalf("ContextUsed() = %v after Resume, want %v (%d bytes)", got, want, size)
	}
}
