package agent

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// cacheLedger accounts for prompt caching the way the Messages API
// describes it: a request is a sequence of blocks (tools, then system, then
// each message's content blocks); each block marked with cache_control is
// a breakpoint, and the prefix up to it is cached. The longest cached
// prefix is read (billed at 0.1×); the prefix up to the last breakpoint
// beyond it is written (1.25×) when it reaches the minimum cacheable
// length; the rest is plain input. Tokens are estimated at 4 bytes each.
type cacheLedger struct {
	mu       sync.Mutex
	min      int64 // minimum cacheable prefix, in tokens (1024 for Sonnet)
	cached   map[[32]byte]bool
	total    Usage // everything billed
	peak     int64 // the largest request, in tokens
	requests int
}

func newCacheLedger() *cacheLedger {
	return &cacheLedger{min: 1024, cached: map[[32]byte]bool{}}
}

// account returns the usage of one request body.
func (c *cacheLedger) account(body map[string]any) map[string]any {
	var blocks []any
	if tl, ok := body["tools"].([]any); ok {
		blocks = append(blocks, tl...)
	}
	switch s := body["system"].(type) {
	case []any:
		blocks = append(blocks, s...)
	case string:
		blocks = append(blocks, map[string]any{"type": "text", "text": s})
	}
	for _, m := range body["messages"].([]any) {
		msg := m.(map[string]any)
		switch ct := msg["content"].(type) {
		case []any:
			for _, b := range ct {
				// The role is part of what a block means.
				blocks = append(blocks, map[string]any{"role": msg["role"], "block": b})
			}
		case string:
			blocks = append(blocks, map[string]any{"role": msg["role"], "block": ct})
		}
	}
	h := sha256.New()
	var n int64
	type point struct {
		tokens int64
		sum    [32]byte
	}
	var points []point
	for _, b := range blocks {
		marked := hasCacheControl(b)
		var cp any // a copy: the recorded body keeps its breakpoints
		raw, _ := json.Marshal(b)
		_ = json.Unmarshal(raw, &cp)
		enc, _ := json.Marshal(stripCache(cp))
		h.Write(enc)
		n += int64(len(enc)) / 4
		if marked {
			var p point
			p.tokens = n
			copy(p.sum[:], h.Sum(nil))
			points = append(points, p)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	c.peak = max(c.peak, n)
	var read, write int64
	hit := -1
	for i := len(points) - 1; i >= 0; i-- {
		if c.cached[points[i].sum] {
			hit, read = i, points[i].tokens
			break
		}
	}
	for i := hit + 1; i < len(points); i++ {
		if points[i].tokens >= c.min {
			c.cached[points[i].sum] = true
			write = points[i].tokens - read
		}
	}
	u := Usage{InputTokens: n - read - write, CacheCreationInputTokens: write, CacheReadInputTokens: read}
	c.total = c.total.Add(u)
	return map[string]any{"input_tokens": u.InputTokens, "cache_creation_input_tokens": write, "cache_read_input_tokens": read, "output_tokens": 1}
}

// hasCacheControl reports whether a block (or the block inside a
// role-tagged one) carries cache_control.
func hasCacheControl(b any) bool {
	m, ok := b.(map[string]any)
	if !ok {
		return false
	}
	if inner, ok := m["block"]; ok {
		return hasCacheControl(inner)
	}
	return m["cache_control"] != nil
}

// TestPromptCaching holds issue 19 §3: over a scripted 30-round session
// with a 20k-token prefix (tools and system), at least 85% of the input
// tokens are cache reads and the input cost is at most 25% of the same
// session without caching. The figures go to docs/BENCHMARKS.md:
//
//	go test -run TestPromptCaching -v ./internal/agent
func TestPromptCaching(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	const rounds = 30
	replies := make([]reply, 0, rounds)
	for i := 1; i < rounds; i++ {
		if i%3 == 0 {
			replies = append(replies, toolUse(bashCall(fmt.Sprintf("toolu_%d", i), fmt.Sprintf("seq %d", 20+i))))
		} else {
			replies = append(replies, toolUse(block{tool: "TodoRead", id: fmt.Sprintf("toolu_%d", i), input: `{}`}))
		}
	}
	replies = append(replies, say("done"))
	e := newEnv(t, replies...)
	e.api.cache = newCacheLedger()
	// A 20k-token prefix: the system prompt with a project's notes.
	notes := strings.Repeat("Project note: keep functions short, tests table-driven, names plain.\n", 80_000/68)
	e.agent.system[0].Text += "\n\n" + notes
	res, err := e.agent.Run(context.Background(), "go through the project", nil)
	if err != nil || res.NumTurns != rounds {
		t.Fatalf("%v %+v", err, res)
	}
	total := e.api.cache.total
	all := total.AllInput()
	readShare := float64(total.CacheReadInputTokens) / float64(all)
	cached := float64(total.InputTokens) + CacheWriteFactor*float64(total.CacheCreationInputTokens) + CacheReadFactor*float64(total.CacheReadInputTokens)
	costShare := cached / float64(all)
	t.Logf("%d rounds, %d input tokens: %d read from the cache (%.1f%%), %d written, %d uncached; input cost %.1f%% of the same session uncached",
		rounds, all, total.CacheReadInputTokens, 100*readShare, total.CacheCreationInputTokens, total.InputTokens, 100*costShare)
	if readShare < 0.85 || costShare > 0.25 {
		t.Fatalf("cache reads %.1f%% (want ≥ 85%%), input cost %.1f%% (want ≤ 25%%)", 100*readShare, 100*costShare)
	}
	// The loop reports what the API counted, and prices it.
	if got := res.Usage; got.InputTokens != total.InputTokens || got.CacheCreationInputTokens != total.CacheCreationInputTokens || got.CacheReadInputTokens != total.CacheReadInputTokens {
		t.Fatalf("the run's usage %+v, the API's %+v", res.Usage, total)
	}
	p, _ := PriceOf(string(DefaultModel))
	withOut := total
	withOut.OutputTokens = res.Usage.OutputTokens
	if want := withOut.Cost(p); res.CostUSD < want*0.999 || res.CostUSD > want*1.001 {
		t.Fatalf("cost %v, want %v", res.CostUSD, want)
	}
	// At most four breakpoints in any request.
	for i, r := range e.api.requests() {
		if n := strings.Count(string(mustJSON(r)), `"cache_control"`); n > 4 || n < 3 {
			t.Fatalf("request %d has %d breakpoints", i, n)
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestMaxBudget: once the session has cost --max-budget-usd, the loop stops
// before the next request, cleanly: the conversation goes on afterwards.
func TestMaxBudget(t *testing.T) {
	t.Parallel() // waits on the fake API (and bash), not on the CPU
	e := newEnv(t, toolUse(block{tool: "TodoRead", id: "toolu_1", input: `{}`}), toolUse(block{tool: "TodoRead", id: "toolu_2", input: `{}`}))
	e.agent.cfg.MaxBudgetUSD = 0.0001 // the first response (10 in, 20 out at Sonnet's price) costs more
	res, err := e.agent.Run(context.Background(), "go", nil)
	if !errors.Is(err, ErrBudget) || res.NumTurns != 1 || len(e.api.requests()) != 1 || !strings.Contains(err.Error(), "--max-budget-usd") {
		t.Fatalf("%v %+v", err, res)
	}
	e.agent.cfg.MaxBudgetUSD = 0
	e.api.script(say("fine"))
	if res, err := e.agent.Run(context.Background(), "go on", nil); err != nil || res.Text != "fine" {
		t.Fatalf("after the budget: %v %+v", err, res)
	}
}
