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

// DefaultCompactAt is the share of the window past which the conversation
// is compacted, before a prompt or between two tool rounds.
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
	return float64(a.lastInput) / float64(a.window())
}

// needsCompaction reports whether the conversation fills more of the window
// than the threshold: the last request, plus what was added since (its
// answer and any tool results, at 4 bytes a token).
func (a *Agent) needsCompaction() bool {
	at := a.cfg.CompactAt
	if at <= 0 {
		at = DefaultCompactAt
	}
	return at < 1 && float64(a.lastInput+a.added)/float64(a.window()) > at
}

// window is the model's context window in tokens.
func (a *Agent) window() int64 {
	if w := a.cfg.ContextWindow; w > 0 {
		return w
	}
	return DefaultContextWindow
}

// Prefixes of the blocks of a compacted conversation's first message.
const (
	summaryPrefix  = "[summary] "
	planPrefix     = "[plan] "
	lastTurnPrefix = "[last turn] The last request was:\n\n"
)

// Compact replaces the conversation by a summary the model writes, the
// current plan verbatim (Config.Plan) and the last turn. It is recorded in
// the transcript, so that a resumed session continues from it. Between
// runs (/compact, or Run before a prompt) the last turn is the last
// request and the final answer, as text; in the middle of a run (Run,
// when a tool round filled the window past the threshold) it is the
// request being worked on, then the last response and its tool results as
// they are, so the loop goes on from them.
func (a *Agent) Compact(ctx context.Context, emit func(Event)) error {
	_, err := a.compact(ctx, emit)
	return err
}

// compact is Compact; it returns what the summary request used.
func (a *Agent) compact(ctx context.Context, emit func(Event)) (Usage, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	if len(a.messages) < 2 {
		return Usage{}, errors.New("nothing to compact yet")
	}
	before := len(a.messages)
	midRun := a.messages[before-1].Role == anthropic.MessageParamRoleUser
	lastPrompt, lastAnswer := a.lastTurn()
	msg, err := a.askSummary(ctx)
	if err != nil {
		return Usage{}, describe(ctx, err)
	}
	u := usageOf(msg.Usage)
	a.usage = a.usage.Add(u)
	summary := strings.TrimSpace(finalText(msg))
	if summary == "" {
		return u, errors.New("compaction: the model wrote no summary")
	}
	plan := "(no plan)"
	if a.cfg.Plan != nil {
		plan = a.cfg.Plan()
	}
	blocks := []anthropic.ContentBlockParamUnion{
		textBlock(summaryPrefix + "This conversation was compacted. Summary of the work so far:\n\n" + summary),
		textBlock(planPrefix + "The current plan, exactly as TodoRead returns it:\n\n" + plan),
	}
	if lastPrompt != "" {
		blocks = append(blocks, textBlock(lastTurnPrefix+lastPrompt))
	}
	if midRun {
		// The last response (its tool_use blocks) and its results, as
		// they are: the next request continues from them.
		a.messages = []anthropic.MessageParam{userMessage(blocks), a.messages[before-2], a.messages[before-1]}
	} else {
		if lastAnswer == "" {
			lastAnswer = "(no answer)"
		}
		a.messages = []anthropic.MessageParam{
			userMessage(blocks),
			{Role: anthropic.MessageParamRoleAssistant, Content: []anthropic.ContentBlockParamUnion{textBlock(lastAnswer)}},
		}
	}
	a.raw, a.cachedUpTo, a.lastInput, a.added = nil, 0, 0, 0
	a.logCompaction()
	emit(Compacted{Before: before, After: len(a.messages)})
	return u, nil
}

// askSummary asks the model for the summary over the whole conversation
// (its prefix is cached) and leaves the conversation as it was. The
// conversation is recorded first; the question is not. In the middle of a
// run, the conversation ends with the tool results: the question joins
// that message (a user message may not follow another).
func (a *Agent) askSummary(ctx context.Context) (anthropic.Message, error) {
	a.logRequests()
	n := len(a.messages)
	ask := textBlock(summaryRequest)
	if last := a.messages[n-1]; last.Role == anthropic.MessageParamRoleUser {
		asked := last
		asked.Content = append(append([]anthropic.ContentBlockParamUnion(nil), last.Content...), ask)
		a.messages[n-1] = asked
		defer func() { a.messages[n-1] = last }()
	} else {
		a.messages = append(a.messages, userMessage([]anthropic.ContentBlockParamUnion{ask}))
		defer func() { a.messages = a.messages[:n] }()
	}
	defer func() {
		// The question's encoding is not the conversation's.
		a.raw = a.raw[:min(len(a.raw), n-1)]
		a.logged = n
	}()
	a.logged = len(a.messages)
	return a.stream(ctx, func(Event) {})
}

// lastTurn returns the text of the last prompt (the last user message with
// text that is not a reminder; after a compaction, the request it kept)
// and of the last answer.
func (a *Agent) lastTurn() (prompt, answer string) {
	for i := len(a.messages) - 1; i >= 0 && (prompt == "" || answer == ""); i-- {
		m := &a.messages[i]
		var texts []string
		for j := range m.Content {
			b := &m.Content[j]
			if b.OfText == nil {
				continue
			}
			t := b.OfText.Text
			switch {
			case strings.HasPrefix(t, "<reminder>"), strings.HasPrefix(t, summaryPrefix), strings.HasPrefix(t, planPrefix):
				continue
			case strings.HasPrefix(t, lastTurnPrefix):
				t = strings.TrimPrefix(t, lastTurnPrefix)
			}
			texts = append(texts, t)
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
