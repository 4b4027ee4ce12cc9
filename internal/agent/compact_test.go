package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/testwait"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestCompactionKeepsPlan holds issue 19 §4: a long scripted session with a
// small window compacts itself whenever the last request filled more than
// the threshold, so no request grows past the window; after a compaction
// the next request holds the plan verbatim; the transcript read back gives
// the compacted conversation.
func TestCompactionKeepsPlan(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	prompts := 200
	if testwait.Race {
		prompts = 80 // still several compactions; the pass without -race runs 200
	}
	const window = 6000 // tokens
	plan := "1. [completed] Read the code\n2. [in_progress] Write the tests\n3. [pending] Ship it"
	e := newEnv(t)
	e.api.cache = newCacheLedger()
	e.agent.cfg.ContextWindow = window
	e.agent.cfg.Plan = func() string { return plan }
	answer := strings.Repeat("A long answer that fills the context. ", 30) // ~280 tokens
	compactions := 0
	for i := range prompts {
		// A compaction first asks for the summary.
		e.api.script(say("Summary: the tests are being written."), say(fmt.Sprintf("answer %d: %s", i, answer)))
		if !e.agent.needsCompaction() {
			e.api.script(say(fmt.Sprintf("answer %d: %s", i, answer)))
		}
		var compacted bool
		_, err := e.agent.Run(context.Background(), fmt.Sprintf("prompt %d", i), func(ev Event) {
			if _, ok := ev.(Compacted); ok {
				compacted = true
			}
		})
		if err != nil {
			t.Fatalf("prompt %d: %v", i, err)
		}
		if e.agent.ContextUsed() > 1 {
			t.Fatalf("prompt %d: the context is %.0f%% full", i, 100*e.agent.ContextUsed())
		}
		if compacted {
			compactions++
			reqs := e.api.requests()
			last := reqs[len(reqs)-1]
			first := userBlocks(map[string]any{"messages": last["messages"].([]any)[:1]})
			if !hasText(first, plan) || !hasText(first, "Summary: the tests are being written.") {
				t.Fatalf("after compaction the request lacks the plan or the summary: %v", first)
			}
		}
	}
	if compactions == 0 {
		t.Fatal("never compacted")
	}
	t.Logf("%d prompts, %d compactions, last context %.0f%%", prompts, compactions, 100*e.agent.ContextUsed())
	// The transcript replays: it gives the compacted conversation and what
	// followed.
	msgs, err := ReadTranscript(bytes.NewReader(e.transcript.Bytes()), func(w string) { t.Errorf("warning %s", w) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(msgs[0], []byte(`[plan] The current plan`)) || len(msgs) != len(e.agent.Messages()) {
		t.Fatalf("resumed %d messages (want %d), first %.200s", len(msgs), len(e.agent.Messages()), msgs[0])
	}
}

// TestCompactionMidRun holds issue 19 §4 within one prompt: a tool loop of
// 60 rounds with a small window compacts between rounds whenever the
// conversation fills more than the threshold, so no request grows past
// the window; the request after each compaction holds the plan exactly as
// TodoRead gives it at that moment, the prompt being worked on and the
// last round (its tool_use and results); the transcript read back is the
// conversation, and a resumed agent continues from it.
func TestCompactionMidRun(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	const rounds = 60
	const window = 8000 // tokens
	const prompt = "fill the window, one round at a time"
	e := newEnv(t)
	e.api.cache = newCacheLedger()
	e.agent.cfg.MaxTurns = rounds + 1
	e.agent.cfg.ContextWindow = window
	plan := func() string {
		return e.reg.Execute(context.Background(), "toolu_plan", todo.ReadName, json.RawMessage(`{}`)).Content
	}
	e.agent.cfg.Plan = plan
	turn := 0
	e.api.respond = func(body map[string]any) reply {
		if hasText(userBlocks(body), "<compaction>") {
			return say(fmt.Sprintf("Summary: %d rounds done, each printed a line of y.", turn))
		}
		turn++
		switch {
		case turn > rounds:
			return say("done")
		case turn%10 == 1: // the plan changes as the work goes on
			return toolUse(todoCall(fmt.Sprintf("toolu_%d", turn),
				[3]string{fmt.Sprintf("Rounds up to %d", turn-1), "Going round", "completed"},
				[3]string{fmt.Sprintf("Rounds from %d", turn), "Going round again", "in_progress"}))
		}
		// 900 bytes of output: not offloaded, about 225 tokens a round.
		return toolUse(bashCall(fmt.Sprintf("toolu_%d", turn), "head -c 900 /dev/zero | tr '\\0' y"))
	}
	type compaction struct {
		request int    // the index of the request after it
		plan    string // TodoRead's output when it happened
	}
	var compactions []compaction
	res, err := e.agent.Run(context.Background(), prompt, func(ev Event) {
		if c, ok := ev.(Compacted); ok {
			if c.After != 3 {
				t.Errorf("compacted mid-run into %d messages, want 3", c.After)
			}
			compactions = append(compactions, compaction{len(e.api.requests()), plan()})
		}
	})
	if err != nil || res.NumTurns != rounds+1 || res.Text != "done" {
		t.Fatalf("%v %+v", err, res)
	}
	if len(compactions) < 2 {
		t.Fatalf("%d compactions in %d rounds, want several", len(compactions), rounds)
	}
	if peak := e.api.cache.peak; peak > window {
		t.Fatalf("a request of %d tokens, past the %d-token window", peak, window)
	}
	reqs := e.api.requests()
	for _, c := range compactions {
		msgs := reqs[c.request]["messages"].([]any)
		first := userBlocks(map[string]any{"messages": msgs[:1]})
		if !hasText(first, "[plan] The current plan, exactly as TodoRead returns it:\n\n"+c.plan) {
			t.Fatalf("request %d lacks the plan verbatim %q: %v", c.request, c.plan, first)
		}
		if !hasText(first, lastTurnPrefix+prompt) || hasText(first, lastTurnPrefix+summaryPrefix) {
			t.Fatalf("request %d lacks the prompt being worked on, alone: %v", c.request, first)
		}
		if len(msgs) != 3 || msgs[1].(map[string]any)["role"] != "assistant" {
			t.Fatalf("request %d has %d messages, want the compacted 3", c.request, len(msgs))
		}
		if last := userBlocks(map[string]any{"messages": msgs}); last[0]["type"] != "tool_result" {
			t.Fatalf("request %d: the last round's results are not kept: %v", c.request, last)
		}
	}
	t.Logf("%d rounds, %d compactions, the largest request %d tokens of %d", rounds, len(compactions), e.api.cache.peak, window)

	// The transcript replays into the conversation, compacted.
	msgs, err := ReadTranscript(bytes.NewReader(e.transcript.Bytes()), func(w string) { t.Errorf("warning %s", w) })
	if err != nil {
		t.Fatal(err)
	}
	have := e.agent.Messages()
	if len(msgs) != len(have) {
		t.Fatalf("replayed %d messages, the agent has %d", len(msgs), len(have))
	}
	for i := range msgs {
		if !sameJSON(msgs[i], have[i]) {
			t.Fatalf("message %d replayed as %.300s, was %.300s", i, msgs[i], have[i])
		}
	}
	// A resumed agent continues from the compacted state.
	b := newEnv(t, say("going on"))
	b.agent.Resume(msgs)
	if _, err := b.agent.Run(context.Background(), "go on", nil); err != nil {
		t.Fatal(err)
	}
	sent := b.api.requests()[0]["messages"].([]any)
	first := userBlocks(map[string]any{"messages": sent[:1]})
	if len(sent) != len(msgs)+1 || !hasText(first, compactions[len(compactions)-1].plan) {
		t.Fatalf("resumed request: %d messages (want %d), first %v", len(sent), len(msgs)+1, first)
	}
}
