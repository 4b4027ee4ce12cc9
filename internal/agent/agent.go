// Package agent runs a real Claude agent loop over todo-shell's tools: it
// streams each response, executes every tool_use through the registry with
// the model's own id, offloads long results, sends all results of a turn back
// in one user message, and reminds the model to keep its todo list.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/todo-shell/todo-shell/internal/permission"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// The reminders, in todo-shell's words.
const (
	// InitialReminder goes with the first prompt of a conversation.
	InitialReminder = "<reminder>When a task takes several steps, plan it with TodoWrite before you start, keep exactly one item in_progress, and mark items completed as soon as they are done.</reminder>"
	// NagReminder leads the tool results once the model has gone more than
	// NagAfter tool-using rounds in a row without TodoWrite.
	NagReminder = "<reminder>You have not updated your todo list for more than 10 rounds. Use TodoWrite now to record what is done and what comes next.</reminder>"
	// NagAfter is how many rounds without TodoWrite are tolerated.
	NagAfter = 10
)

// DefaultSystem is the system prompt; --system appends to it.
const DefaultSystem = `You are the agent inside todo-shell, a small terminal shell for people learning how coding agents work. You act with the tools you are given: Bash runs commands in the user's working directory, TodoWrite keeps your plan visible in the user's task panel, TodoRead reads it back, Read, Write and Edit read and change files (Read a file before you change it). Results of 1000 characters or more are saved to a file and replaced by a line naming that file; read such files with Bash (head, tail, grep, sed -n) rather than printing them whole. Be brief in your text: the user watches your plan and your commands.`

// DefaultModel is the model used when none is named.
const DefaultModel = anthropic.ModelClaudeSonnet5_5

// Config is what an Agent works with.
type Config struct {
	Client    anthropic.Client
	Model     string
	MaxTokens int64
	MaxTurns  int
	System    string // appended to DefaultSystem
	// Tools runs the tool calls, under the offload policy; made Redacting
	// (with Bash given the same redactor), it masks the credentials in
	// every result before the model, the screen, the transcript or an
	// offload file sees it.
	Tools *tools.Executor
	// Transcript receives the conversation as JSON lines; nil for none.
	Transcript io.Writer
	// StreamIdleTimeout abandons a response when nothing arrives for this
	// long, waiting for it to start included; 0 means
	// DefaultStreamIdleTimeout.
	StreamIdleTimeout time.Duration
	// Permissions decides which calls run without asking; nil runs every
	// call (the engine's own tests, embedders that check elsewhere).
	Permissions *permission.Policy
	// Ask asks a person about a call Permissions does not allow by
	// itself, and blocks until they answer or ctx ends. nil means there is
	// no one to ask (agent -p): such a call is refused with the rule that
	// would allow it.
	Ask func(ctx context.Context, q Question) Answer
	// MaxBudgetUSD, when more than 0, stops a run before a request once
	// the session has cost that much (--max-budget-usd).
	MaxBudgetUSD float64
	// ContextWindow is the model's context window in tokens; 0 means
	// DefaultContextWindow.
	ContextWindow int64
	// CompactAt is the share of the window past which the conversation
	// is compacted, before the next prompt or the next round of a tool
	// loop; 0 means DefaultCompactAt, 1 or more never.
	CompactAt float64
	// Plan returns the current plan as TodoRead gives it; a compaction
	// keeps it verbatim.
	Plan func() string
	// OnTurn, when set, is called after each response the model completes
	// (a session counts its agent turns with it), whatever the front end.
	OnTurn func(TurnDone)
}

// DefaultStreamIdleTimeout is how long a response may send nothing.
const DefaultStreamIdleTimeout = 120 * time.Second

// Agent holds one conversation. Run is not safe for concurrent use: one
// prompt at a time.
type Agent struct {
	cfg        Config
	system     []anthropic.TextBlockParam // the system prompt, a cache breakpoint
	tools      []anthropic.ToolUnionParam // the registry's tools, the last a cache breakpoint
	messages   []anthropic.MessageParam   // the conversation
	raw        []json.RawMessage          // messages[i] as encoded once (nil: not yet)
	cachedUpTo int                        // messages in the last request (its end was a breakpoint)
	logged     int                        // messages already written to the transcript
	quiet      int                        // consecutive tool-using rounds without TodoWrite
	prompted   bool
	usage      Usage // the session's token use (this process's requests)
	lastInput  int64 // input tokens of the last request (the context used)
	added      int64 // tokens added to the conversation since (estimated)
	logErr     error // the first failure to write the transcript
}

// New returns an agent whose tools are exactly the registry's definitions.
func New(cfg Config) (*Agent, error) {
	if cfg.MaxTurns <= 0 {
		return nil, fmt.Errorf("agent: max turns must be 1 or more")
	}
	if cfg.MaxTokens <= 0 {
		return nil, fmt.Errorf("agent: max tokens must be 1 or more")
	}
	if cfg.StreamIdleTimeout < 0 {
		return nil, fmt.Errorf("agent: the stream idle timeout must be 0 (the default) or more")
	}
	if cfg.StreamIdleTimeout == 0 {
		cfg.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	system := DefaultSystem
	if cfg.System != "" {
		system += "\n\n" + cfg.System
	}
	// The tools go out as the registry's definitions, the same JSON
	// `todo-shell tools` prints.
	tl, err := toolParams(cfg.Tools.Definitions())
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	if n := len(tl); n > 0 {
		tl[n-1].OfTool.CacheControl = ephemeral()
	}
	a := &Agent{
		cfg:    cfg,
		system: []anthropic.TextBlockParam{{Text: system, CacheControl: ephemeral()}},
		tools:  tl,
	}
	return a, nil
}

// Event is something the loop reports while it runs.
type Event interface{ isEvent() }

// TextDelta is a piece of assistant text as it streams in.
type TextDelta struct{ Text string }

// TextDone is a finished block of assistant text.
type TextDone struct{ Text string }

// ToolCall is a tool_use about to be executed.
type ToolCall struct{ Use tools.ToolUse }

// ToolDone is the result of a tool call, as sent back (offloaded when long).
type ToolDone struct {
	Use    tools.ToolUse
	Result tools.ToolResult
}

// RoundStart says a request is about to go out.
type RoundStart struct{ Round int }

// TurnDone says the model completed a response: its round in this run,
// why it stopped and what it used.
type TurnDone struct {
	Round      int
	StopReason string
	Usage      Usage
	CostUSD    float64 // this response's cost
	Session    Usage   // the whole session's use so far
	SessionUSD float64 // the whole session's cost so far
	Model      string
	Context    float64 // the share of the context window this request filled
}

func (TextDelta) isEvent()  {}
func (TextDone) isEvent()   {}
func (ToolCall) isEvent()   {}
func (ToolDone) isEvent()   {}
func (RoundStart) isEvent() {}
func (TurnDone) isEvent()   {}

// Result is how a run ended.
type Result struct {
	Text     string // the final assistant text
	NumTurns int    // requests made
	Usage    Usage
	CostUSD  float64 // what the run cost (0 when the model's price is unknown)
}

// ErrMaxTurns ends a run that hit the turn limit.
var ErrMaxTurns = errors.New("stopped: the turn limit was reached")

// Run sends prompt and runs the loop until the model stops asking for
// tools, the turn limit is hit, ctx is cancelled or the API fails. The
// conversation stays usable after any of these: the next Run continues it.
func (a *Agent) Run(ctx context.Context, prompt string, emit func(Event)) (Result, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	var res Result
	if err := a.compactIfFull(ctx, emit, &res); err != nil {
		return res, err
	}
	content := []anthropic.ContentBlockParamUnion{textBlock(prompt)}
	if !a.prompted {
		content = append(content, textBlock(InitialReminder))
		a.prompted = true
	}
	a.messages = append(a.messages, userMessage(content))

	for {
		if res.NumTurns == a.cfg.MaxTurns {
			return res, fmt.Errorf("%w (%d turns; raise --max-turns)", ErrMaxTurns, a.cfg.MaxTurns)
		}
		if b := a.cfg.MaxBudgetUSD; b > 0 && a.cost() >= b {
			return res, fmt.Errorf("%w ($%.4f spent, --max-budget-usd %g)", ErrBudget, a.cost(), b)
		}
		res.NumTurns++
		emit(RoundStart{Round: res.NumTurns})
		msg, err := a.stream(ctx, emit)
		if err != nil {
			return res, describe(ctx, err)
		}
		turn := a.takeResponse(msg, &res)
		if a.cfg.OnTurn != nil {
			a.cfg.OnTurn(turn)
		}
		emit(turn)
		res.Text = finalText(msg)
		if msg.StopReason != anthropic.StopReasonToolUse {
			return res, nil
		}
		a.answerTools(ctx, msg, emit)
		if ctx.Err() != nil {
			a.logRequests() // record the results that close the turn
			return res, describe(ctx, ctx.Err())
		}
		// A long tool loop compacts as it goes, not only between prompts.
		if err := a.compactIfFull(ctx, emit, &res); err != nil {
			return res, err
		}
	}
}

// takeResponse adds the model's response msg to the conversation and its
// usage and cost to the session's and res, and returns the TurnDone that
// says so.
func (a *Agent) takeResponse(msg anthropic.Message, res *Result) TurnDone {
	u := usageOf(msg.Usage)
	a.lastInput, a.added = u.AllInput(), u.OutputTokens
	res.Usage = res.Usage.Add(u)
	a.usage = a.usage.Add(u)
	price, _ := PriceOf(a.cfg.Model)
	res.CostUSD += u.Cost(price)
	a.messages = append(a.messages, responseParam(msg))
	a.logResponse(msg)
	return TurnDone{Round: res.NumTurns, StopReason: string(msg.StopReason), Usage: u, CostUSD: u.Cost(price), Session: a.usage, SessionUSD: a.cost(), Model: a.cfg.Model, Context: a.ContextUsed()}
}

// answerTools runs the tools msg asks for and adds their results to the
// conversation, after the nag reminder when the plan has been left alone
// for more than NagAfter turns.
func (a *Agent) answerTools(ctx context.Context, msg anthropic.Message, emit func(Event)) {
	results, usedTodo := a.runTools(ctx, msg, emit)
	if usedTodo {
		a.quiet = 0
	} else {
		a.quiet++
	}
	if a.quiet > NagAfter {
		results = append([]anthropic.ContentBlockParamUnion{textBlock(NagReminder)}, results...)
	}
	a.messages = append(a.messages, userMessage(results))
	a.added += textTokens(results)
}

// compactIfFull compacts the conversation when it fills more of the
// window than the threshold, adding what the summary cost to res.
func (a *Agent) compactIfFull(ctx context.Context, emit func(Event), res *Result) error {
	if !a.needsCompaction() {
		return nil
	}
	u, err := a.compact(ctx, emit)
	res.Usage = res.Usage.Add(u)
	price, _ := PriceOf(a.cfg.Model)
	res.CostUSD += u.Cost(price)
	if err != nil {
		return fmt.Errorf("compaction failed: %w", err)
	}
	return nil
}

// textTokens estimates the tokens of the text in blocks (text blocks and
// tool results' text), at 4 bytes a token.
func textTokens(blocks []anthropic.ContentBlockParamUnion) int64 {
	n := 0
	for i := range blocks {
		b := &blocks[i]
		switch {
		case b.OfText != nil:
			n += len(b.OfText.Text)
		case b.OfToolResult != nil:
			for _, c := range b.OfToolResult.Content {
				if c.OfText != nil {
					n += len(c.OfText.Text)
				}
			}
		}
	}
	return int64(n / 4)
}

// errIdle cancels a request whose response went quiet.
var errIdle = errors.New("stream idle")

// stream makes one request and reads its streamed response (see
// response for how the events become the message). Nothing arriving for
// StreamIdleTimeout abandons it; a response that stops before message_stop
// is a failure of its own ("ended early"), not a network one.
func (a *Agent) stream(ctx context.Context, emit func(Event)) (anthropic.Message, error) {
	a.logRequests()
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := a.cfg.StreamIdleTimeout
	timer := time.AfterFunc(idle, func() { cancel(errIdle) })
	defer timer.Stop()
	stream := a.cfg.Client.Messages.NewStreaming(reqCtx, a.params(),
		option.WithMiddleware(noLongRetries(min(MaxRetryWait, idle/2))))
	defer func() { _ = stream.Close() }() // read in full or abandoned: nothing to do if closing fails
	r := response{emit: emit}
	started := false
	for stream.Next() {
		timer.Reset(idle)
		started = true
		if err := r.add(stream.Current()); err != nil {
			return r.msg, err
		}
	}
	msg := r.message()
	return msg, streamErr(ctx, reqCtx, stream.Err(), started, idle, msg)
}

// streamErr is how a stream that stopped sending ended: nil when the
// message is complete, else the failure to report. reqCtx is the request's
// context, cancelled with errIdle when it went quiet for idle.
func streamErr(ctx, reqCtx context.Context, err error, started bool, idle time.Duration, msg anthropic.Message) error {
	if cause := context.Cause(reqCtx); errors.Is(cause, errIdle) && ctx.Err() == nil {
		what := "the response stopped"
		if !started {
			what = "no response started"
		}
		return &Failure{Kind: "timeout", Msg: fmt.Sprintf("Timed out: %s; nothing arrived from the Anthropic API for %s (--stream-idle-timeout)", what, idle), Err: errIdle}
	}
	if err != nil {
		if f, ok := tooLarge(err); ok {
			return f
		}
		if started && ctx.Err() == nil {
			return endedEarly(err)
		}
		return err
	}
	if msg.StopReason == "" {
		return endedEarly(nil)
	}
	return nil
}

// response accumulates a streamed response, reporting its text as it
// comes.
//
// Text is accumulated here, one builder per block, not by
// anthropic.Message.Accumulate: that appends each delta to a string, which
// copies the whole text so far for every delta (4 MB in 100-byte deltas is
// 40,000 copies of up to 4 MB), and re-encodes it at each stop.
type response struct {
	msg   anthropic.Message
	texts []*strings.Builder // by block index
	emit  func(Event)
}

// add takes one event of the stream.
func (r *response) add(ev anthropic.MessageStreamEventUnion) error {
	if ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta" {
		return r.addText(int(ev.Index), ev.Delta.Text)
	}
	if err := r.msg.Accumulate(ev); err != nil {
		return fmt.Errorf("read response: %w", err)
	}
	if ev.Type == "content_block_stop" {
		if i := int(ev.Index); i < len(r.texts) && r.texts[i] != nil && r.texts[i].Len() > 0 {
			r.emit(TextDone{Text: r.texts[i].String()})
		}
	}
	return nil
}

// addText appends a text delta to block i.
func (r *response) addText(i int, d string) error {
	if i < 0 || i >= len(r.msg.Content) {
		return fmt.Errorf("read response: text for block %d of %d", i, len(r.msg.Content))
	}
	for len(r.texts) <= i {
		r.texts = append(r.texts, nil)
	}
	if r.texts[i] == nil {
		r.texts[i] = new(strings.Builder)
		r.texts[i].WriteString(r.msg.Content[i].Text)
	}
	if d != "" {
		r.texts[i].WriteString(d)
		r.emit(TextDelta{Text: d})
	}
	return nil
}

// message is the message read so far, its text included. The text goes
// into the message only now: while the stream runs the SDK re-encodes a
// block's JSON from its text at every block and message stop, copies of
// copies that a long answer cannot afford. The message's own JSON
// (RawJSON) therefore lacks the text; nothing here reads it.
func (r *response) message() anthropic.Message {
	for i, b := range r.texts {
		if b != nil && i < len(r.msg.Content) {
			r.msg.Content[i].Text = b.String()
		}
	}
	return r.msg
}

// endedEarly is a response that began and then stopped before message_stop:
// the API was reached, so it is not a network failure to reach it.
func endedEarly(err error) error {
	msg := "The response ended early: the Anthropic API closed the stream before the message was complete; try again"
	if err != nil {
		msg += " (" + oneLine(err.Error()) + ")"
	} else {
		err = errors.New("the response ended before message_stop")
	}
	return &Failure{Kind: "ended_early", Msg: msg, Err: err}
}

// execute runs one tool call: the result with the credentials masked (by
// the executor, when it was made Redacting), then offloaded when long.
func (a *Agent) execute(ctx context.Context, use tools.ToolUse) tools.ToolResult {
	return a.cfg.Tools.Execute(ctx, use.ID, use.Name, use.Input)
}

// runTools executes the response's tool_use blocks in order and returns one
// tool_result block for each, in the same order. Once ctx is cancelled the
// remaining calls are not run but still answered, so the conversation stays
// valid.
func (a *Agent) runTools(ctx context.Context, msg anthropic.Message, emit func(Event)) ([]anthropic.ContentBlockParamUnion, bool) {
	var results []anthropic.ContentBlockParamUnion
	usedTodo := false
	for i := range msg.Content {
		block := &msg.Content[i]
		if block.Type != "tool_use" {
			continue
		}
		use := tools.ToolUse{Type: "tool_use", ID: block.ID, Name: block.Name, Input: block.Input}
		if use.Name == todo.WriteName {
			usedTodo = true
		}
		var res tools.ToolResult
		if ctx.Err() != nil {
			res = tools.ToolResult{Type: "tool_result", ToolUseID: use.ID, Content: "Interrupted by the user before this tool ran", IsError: true}
		} else {
			emit(ToolCall{Use: use})
			if refused, ok := a.permit(ctx, use, emit); ok {
				res = a.execute(ctx, use)
			} else {
				res = refused
			}
		}
		emit(ToolDone{Use: use, Result: res})
		results = append(results, resultBlock(res))
	}
	return results, usedTodo
}

// finalText joins the text blocks of a response.
func finalText(msg anthropic.Message) string {
	var parts []string
	for i := range msg.Content {
		b := &msg.Content[i]
		if b.Type == "text" && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Usage returns the session's token use so far (the requests of this
// process; a resumed conversation's earlier use is in its transcript).
func (a *Agent) Usage() Usage { return a.usage }

// CostUSD returns what the session has cost so far (0 when the model's
// price is unknown).
func (a *Agent) CostUSD() float64 { return a.cost() }

func (a *Agent) cost() float64 {
	p, _ := PriceOf(a.cfg.Model)
	return a.usage.Cost(p)
}

// Model returns the model the agent talks to.
func (a *Agent) Model() string { return a.cfg.Model }

// Messages returns the conversation so far, each message as its JSON (for
// tests and inspection).
func (a *Agent) Messages() []json.RawMessage {
	out := make([]json.RawMessage, len(a.messages))
	for i, m := range a.messages {
		out[i], _ = json.Marshal(m)
	}
	return out
}

// logResponse writes the response as a "response" JSON line: the message's
// metadata and the content it is sent back with; that message, the last
// one, counts as logged.
func (a *Agent) logResponse(msg anthropic.Message) {
	w := a.cfg.Transcript
	if w == nil {
		return
	}
	type message struct {
		ID           string                             `json:"id"`
		Type         string                             `json:"type"`
		Role         string                             `json:"role"`
		Model        string                             `json:"model"`
		StopReason   string                             `json:"stop_reason"`
		StopSequence string                             `json:"stop_sequence,omitempty"`
		Usage        json.RawMessage                    `json:"usage"`
		Content      []anthropic.ContentBlockParamUnion `json:"content"`
	}
	line := struct {
		Type    string  `json:"type"`
		Time    string  `json:"time"`
		Message message `json:"message"`
	}{"response", time.Now().UTC().Format(time.RFC3339Nano), message{
		msg.ID, "message", "assistant", string(msg.Model), string(msg.StopReason), msg.StopSequence,
		usageJSON(msg.Usage), a.messages[len(a.messages)-1].Content,
	}}
	b, err := json.Marshal(line)
	if err != nil { // cannot happen: the content was encoded for the request
		b = []byte(`{"type":"response","error":"the response could not be recorded"}`)
	}
	a.logWrite(w, append(b, '\n'))
	a.logged = len(a.messages)
}

// logWrite writes p to the transcript, keeping the first failure for
// TranscriptErr.
func (a *Agent) logWrite(w io.Writer, p []byte) {
	if _, err := w.Write(p); err != nil && a.logErr == nil {
		a.logErr = err
	}
}

// TranscriptErr returns the first failure to write the transcript, or nil.
// The conversation goes on without it; the front end reports it.
func (a *Agent) TranscriptErr() error { return a.logErr }

// usageJSON is a response's final token counts (the SDK's raw usage JSON is
// message_start's).
func usageJSON(u anthropic.Usage) json.RawMessage {
	b, _ := json.Marshal(struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	}{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens})
	return b
}

// logRequests writes the messages not yet written as "request" JSON lines.
func (a *Agent) logRequests() {
	if a.cfg.Transcript == nil {
		return
	}
	type line struct {
		Type    string          `json:"type"`
		Time    string          `json:"time"`
		Model   string          `json:"model,omitempty"`
		Message any             `json:"message,omitempty"`
		Tools   json.RawMessage `json:"tools,omitempty"`
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	enc := json.NewEncoder(a.cfg.Transcript)
	for ; a.logged < len(a.messages); a.logged++ {
		l := line{Type: "request", Time: now, Model: a.cfg.Model, Message: a.messages[a.logged]}
		if a.logged == 0 {
			defs, _ := json.Marshal(a.cfg.Tools.Definitions())
			l.Tools = defs
		}
		if err := enc.Encode(l); err != nil && a.logErr == nil {
			a.logErr = err
		}
	}
}

// describe turns a failure into one clear line.
func describe(ctx context.Context, err error) error {
	if f := (*Failure)(nil); errors.As(err, &f) {
		return f
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())) {
		return ErrInterrupted
	}
	var apiErr *anthropic.Error
	if errors.As(err, &apiErr) {
		switch code := apiErr.StatusCode; {
		case code == 401:
			return &Failure{Kind: "auth", Msg: "Authentication failed (401): the API key was refused; check ANTHROPIC_API_KEY", Err: err}
		case code == 429:
			return &Failure{Kind: "rate_limit", Msg: rateLimited("Rate limited (429): the Anthropic API is refusing requests for now", header(apiErr), time.Now()), Err: err}
		case code == 529 || strings.Contains(apiErr.RawJSON(), "overloaded_error"):
			return &Failure{Kind: "overloaded", Msg: rateLimited(fmt.Sprintf("The Anthropic API is overloaded (%d)", code), header(apiErr), time.Now()), Err: err}
		case code >= 500:
			return &Failure{Kind: "server", Msg: fmt.Sprintf("The Anthropic API failed (%d); try again shortly", code), Err: err}
		default:
			return &Failure{Kind: "request", Msg: fmt.Sprintf("The Anthropic API rejected the request (%d): %s", code, apiMessage(apiErr)), Err: err}
		}
	}
	var netErr net.Error
	var opErr *net.OpError
	if errors.As(err, &netErr) || errors.As(err, &opErr) || strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "EOF") {
		return &Failure{Kind: "network", Msg: "Network error: could not reach the Anthropic API (" + oneLine(err.Error()) + ")", Err: err}
	}
	return &Failure{Kind: "other", Msg: "Agent error: " + oneLine(err.Error()), Err: err}
}

// ErrInterrupted ends a run the user interrupted.
var ErrInterrupted = errors.New("interrupted")

// Failure is an API or network failure, with one line for the user.
type Failure struct {
	Kind string // auth, rate_limit, overloaded, server, request, network, timeout, ended_early, other
	Msg  string
	Err  error
}

func (f *Failure) Error() string { return f.Msg }
func (f *Failure) Unwrap() error { return f.Err }

// header is the HTTP header of a failed response (empty when there was
// none).
func header(e *anthropic.Error) http.Header {
	if e.Response == nil {
		return http.Header{}
	}
	return e.Response.Header
}

func apiMessage(e *anthropic.Error) string {
	var body struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(e.RawJSON()), &body) == nil && body.Error.Message != "" {
		return body.Error.Message
	}
	return oneLine(e.Error())
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
