package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input, Output float64
}

// Cache writes cost 1.25 times the input price, cache reads 0.1 times
// (five-minute cache), as the prompt caching documentation states.
const (
	CacheWriteFactor = 1.25
	CacheReadFactor  = 0.1
)

// PriceOf returns the price of model: the first entry of the table whose
// prefix the model's name starts with. The table holds Anthropic's
// published list prices (https://www.anthropic.com/pricing); a model
// family's newer versions are assumed to cost what the family's entry says
// until the table is updated. ok is false for a model the table does not
// know (its cost is then shown as unknown).
func PriceOf(model string) (p Price, ok bool) {
	for _, e := range []struct {
		prefix string
		price  Price
	}{
		// Most specific first.
		{"claude-opus-4-5", Price{5, 25}},
		{"claude-opus-4", Price{15, 75}},
		{"claude-3-opus", Price{15, 75}},
		{"claude-opus", Price{5, 25}},
		{"claude-sonnet", Price{3, 15}},
		{"claude-3-7-sonnet", Price{3, 15}},
		{"claude-3-5-sonnet", Price{3, 15}},
		{"claude-haiku-4", Price{1, 5}},
		{"claude-3-5-haiku", Price{0.8, 4}},
		{"claude-haiku", Price{1, 5}},
		{"claude-3-haiku", Price{0.25, 1.25}},
	} {
		if strings.HasPrefix(model, e.prefix) {
			return e.price, true
		}
	}
	return Price{}, false
}

// Usage is token use, as the API counts it: input_tokens are the input
// tokens neither written to nor read from the cache.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// usageOf is a response's usage.
func usageOf(u anthropic.Usage) Usage {
	return Usage{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens}
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens,
		u.CacheCreationInputTokens + v.CacheCreationInputTokens, u.CacheReadInputTokens + v.CacheReadInputTokens}
}

// AllInput is every input token: uncached, written to the cache and read
// from it.
func (u Usage) AllInput() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Cost is what u costs at p, in US dollars.
func (u Usage) Cost(p Price) float64 {
	in := float64(u.InputTokens) + CacheWriteFactor*float64(u.CacheCreationInputTokens) + CacheReadFactor*float64(u.CacheReadInputTokens)
	return (in*p.Input + float64(u.OutputTokens)*p.Output) / 1e6
}

// CostLine is the dim line shown after a turn: ↑ 12.3k in (11.9k cached) ·
// ↓ 450 out · $0.012 (no price when the model's is unknown).
func CostLine(u Usage, model string) string {
	s := fmt.Sprintf("↑ %s in (%s cached) · ↓ %s out", tokens(u.AllInput()), tokens(u.CacheReadInputTokens), tokens(u.OutputTokens))
	if p, ok := PriceOf(model); ok {
		s += fmt.Sprintf(" · $%.3f", u.Cost(p))
	}
	return s
}

// tokens writes a count briefly: 450, 12.3k, 1.2M.
func tokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// ErrBudget ends a run once the session has cost --max-budget-usd.
var ErrBudget = errors.New("stopped: the session reached its budget")
