package agent

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestCompactionKeepsPlan holds issue 19 §4: a long scripted session with a
// small window compacts itself whenever the last request filled more than
// the threshold, so no request grows past the window; after a compaction
// the next request holds the plan verbatim; the transcript read back gives
// the compacted conversation.
func TestCompactionKeepsPlan(t *testing.T) {
	const prompts = 200
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
