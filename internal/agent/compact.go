package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
)

// DefaultContextWindow is the context window assumed for a model (the
// Claude models' standard 200k tokens).
const DefaultContextWindow = 200_000

// DefaultCompactAt is the share of the window past which a new prompt first
// compacts the conversation.
const DefaultCompactAt = 0.8

// summaryRequest asks the model for the summary a compaction keeps, in
// todo-shell's words.
const summaryRequest = "<compaction>The conversation is about to be shortened to save context. Write a summary of the work so far that lets you continue without the full history: what was asked, what was done and found (files, commands, results that matter), decisions made, and what remains. Do not call tools; answer with the summary only.</compaction>"

// Compacted reports that the conversation was replaced by its summary, the
// plan and the last turn.
type Compacted struct {
	Before, After int // messages
}

func (Compacted) isEvent() {}

// ContextUsed is the share of the context window the last request filled
// (0 before any request).
func (a *Agent) ContextUsed() float64 {
	w := a.cfg.ContextWindow
	if w <= 0 {
		w = DefaultContextWindow
	}
	return float64(a.lastInput) / float64(w)
}

// needsCompaction reports whether the last request filled more of the
// window than the threshold.
func (a *Agent) needsCompaction() bool {
	at := a.cfg.CompactAt
	if at <= 0 {
		at = DefaultCompactAt
	}
	return at < 1 && a.ContextUsed() > at
}

// Compact replaces the conversation by a summary the model writes, the
// current plan verbatim (Config.Plan) and the last turn (its request and
// final answer as text). It is recorded in the transcript, so that a
// resumed session continues from it. It must be called between runs (the
// conversation ends with an answer), as /compact and Run do.
func (a *Agent) Compact(ctx context.Context, emit func(Event)) error {
	if emit == nil {
		emit = func(Event) {}
	}
	if len(a.messages) < 2 {
		return errors.New("nothing to compact yet")
	}
	before := len(a.messages)
	lastPrompt, lastAnswer := a.lastTurn()
	// Ask for the summary over the whole conversation (its prefix is
	// cached), then drop the question from the conversation whatever
	// happens.
	a.messages = append(a.messages, userMessage([]anthropic.ContentBlockParamUnion{textBlock(summaryRequest)}))
	msg, err := a.stream(ctx, func(Event) {})
	a.messages = a.messages[:len(a.messages)-1]
	a.logged = min(a.logged, len(a.messages))
	if err != nil {
		return describe(ctx, err)
	}
	a.usage = a.usage.Add(usageOf(msg.Usage))
	summary := strings.TrimSpace(finalText(msg))
	if summary == "" {
		return errors.New("compaction: the model wrote no summary")
	}
	plan := "(no plan)"
	if a.cfg.Plan != nil {
		plan = a.cfg.Plan()
	}
	blocks := []anthropic.ContentBlockParamUnion{
		textBlock("[summary] This conversation was compacted. Summary of the work so far:\n\n" + summary),
		textBlock("[plan] The current plan, exactly as TodoRead returns it:\n\n" + plan),
	}
	if lastPrompt != "" {
		blocks = append(blocks, textBlock("[last turn] The last request was:\n\n"+lastPrompt))
	}
	if lastAnswer == "" {
		lastAnswer = "(no answer)"
	}
	a.messages = []anthropic.MessageParam{
		userMessage(blocks),
		{Role: anthropic.MessageParamRoleAssistant, Content: []anthropic.ContentBlockParamUnion{textBlock(lastAnswer)}},
	}
	a.raw, a.cachedUpTo, a.lastInput = nil, 0, 0
	a.logCompaction()
	emit(Compacted{Before: before, After: len(a.messages)})
	return nil
}

// lastTurn returns the text of the last prompt (the last user message with
// text that is not a reminder) and of the last answer.
func (a *Agent) lastTurn() (prompt, answer string) {
	for i := len(a.messages) - 1; i >= 0 && (prompt == "" || answer == ""); i-- {
		m := &a.messages[i]
		var texts []string
		for j := range m.Content {
			b := &m.Content[j]
			if b.OfText != nil && !strings.HasPrefix(b.OfText.Text, "<reminder>") {
				texts = append(texts, b.OfText.Text)
			}
		}
		if len(texts) == 0 {
			continue
		}
		if m.Role == anthropic.MessageParamRoleAssistant && answer == "" {
			answer = strings.Join(texts, "\n")
		}
		if m.Role == anthropic.MessageParamRoleUser && prompt == "" {
			prompt = strings.Join(texts, "\n")
		}
	}
	return prompt, answer
}

// logCompaction writes a "compact" line holding the new conversation: a
// transcript read back starts over from it.
func (a *Agent) logCompaction() {
	w := a.cfg.Transcript
	if w == nil {
		a.logged = len(a.messages)
		return
	}
	b, err := json.Marshal(struct {
		Type     string                   `json:"type"`
		Time     string                   `json:"time"`
		Messages []anthropic.MessageParam `json:"messages"`
	}{"compact", time.Now().UTC().Format(time.RFC3339Nano), a.messages})
	if err != nil {
		b = []byte(fmt.Sprintf(`{"type":"compact_failed","error":%q}`, err.Error()))
	}
	a.logWrite(w, append(b, '\n'))
	a.logged = len(a.messages)
}
