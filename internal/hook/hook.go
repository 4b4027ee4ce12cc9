// Package hook speaks the command-hook protocol of the agents todo-shell
// answers at the moment they start, take a prompt and try to stop: Claude
// Code (Stop, SubagentStop, SessionStart, UserPromptSubmit), Codex, whose
// hooks take and give the same JSON (plus its turn_id), and Gemini CLI
// (AfterAgent, BeforeAgent, SessionStart). It reads the hook's JSON from
// standard input and writes the answer's: field names exactly as each
// agent documents them, the prose todo-shell's own. The prose is written
// here from what package hold decides: a held stop's reason (Reason), the
// note a stop let through leaves the person (Note), the shared plan as
// context (SharedContext), the plan's untrusted texts neutralised and cut
// as they are quoted. It also writes the settings that register the hooks
// (Settings, Merge).
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Agent is the agent a hook runs for.
type Agent uint8

// Agents.
const (
	Claude Agent = iota
	Codex
	Gemini
)

func (a Agent) String() string {
	switch a {
	case Codex:
		return "Codex"
	case Gemini:
		return "Gemini CLI"
	}
	return "Claude Code"
}

// Kind is what a hook event asks, whatever the agent calls it.
type Kind uint8

// Kinds of events.
const (
	KindOther        Kind = iota
	KindStop              // Stop, Gemini CLI's AfterAgent
	KindSubagentStop      // SubagentStop
	KindSessionStart      // SessionStart
	KindPrompt            // UserPromptSubmit, Gemini CLI's BeforeAgent
)

// Input is a hook's input: the fields todo-shell reads.
type Input struct {
	Event          string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	// PromptID is Claude Code's prompt_id (2.1.3xx): one id for a prompt
	// and every event until the next.
	PromptID string `json:"prompt_id"`
	// TurnID is Codex's turn_id.
	TurnID         string `json:"turn_id"`
	StopHookActive bool   `json:"stop_hook_active"`
	// SubagentStop: the sub-agent and its own transcript.
	AgentID             string `json:"agent_id"`
	AgentTranscriptPath string `json:"agent_transcript_path"`
	// SessionStart: startup, resume, clear, compact.
	Source string `json:"source"`
	// Timestamp is sent by Gemini CLI only (it tells it apart).
	Timestamp string `json:"timestamp"`

	Agent Agent `json:"-"`
}

// MaxInput caps the hook input read from standard input.
const MaxInput = 4 << 20

// ErrNoEvent is ParseInput's error for JSON without hook_event_name.
var ErrNoEvent = errors.New("hook input has no hook_event_name")

// ParseInput reads a hook's input JSON and tells which agent sent it:
// Gemini CLI by its own event names (AfterAgent, BeforeAgent…) or its
// timestamp, Codex by its turn_id, Claude Code otherwise.
func ParseInput(b []byte) (Input, error) {
	var in Input
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("hook input is not JSON: %w", err)
	}
	if in.Event == "" {
		return in, ErrNoEvent
	}
	switch {
	case in.Event == "AfterAgent" || in.Event == "BeforeAgent" || in.Event == "BeforeModel" || in.Event == "AfterModel" ||
		in.Event == "BeforeTool" || in.Event == "AfterTool" || in.Timestamp != "" && in.TurnID == "":
		in.Agent = Gemini
	case in.TurnID != "":
		in.Agent = Codex
	}
	return in, nil
}

// Kind is what the event asks.
func (in Input) Kind() Kind {
	switch in.Event {
	case "Stop", "AfterAgent":
		return KindStop
	case "SubagentStop":
		return KindSubagentStop
	case "SessionStart":
		return KindSessionStart
	case "UserPromptSubmit", "BeforeAgent":
		return KindPrompt
	}
	return KindOther
}

// Prompt is the agent's own id of the current prompt: Claude Code's
// prompt_id, Codex's turn_id ("" when it sends none).
func (in Input) Prompt() string {
	if in.PromptID != "" {
		return in.PromptID
	}
	return in.TurnID
}

// Block is the answer that holds a stop: the agent goes on with reason as
// its next instruction. Gemini CLI calls the decision "deny" (and takes
// "block" as an alias); Claude Code and Codex "block". note, when not
// empty, is shown to the person.
func Block(in Input, reason, note string) []byte {
	decision := "block"
	if in.Agent == Gemini {
		decision = "deny"
	}
	return encode(answer{Decision: decision, Reason: reason, SystemMessage: note})
}

// Allow is the answer that lets the agent go on (a stop through, a prompt
// on); note, when not empty, is shown to the person. With no note it is
// nothing for Claude Code (an empty answer) and {} for the others, whose
// documents want JSON on standard output.
func Allow(in Input, note string) []byte {
	if note == "" {
		if in.Agent == Claude {
			return nil
		}
		return []byte("{}\n")
	}
	return encode(answer{SystemMessage: note})
}

// Context is the answer that adds text to what the agent is told at the
// start of the session or with a prompt.
func Context(in Input, text string) []byte {
	return encode(answer{Specific: &specific{Event: in.Event, AdditionalContext: text}})
}

type answer struct {
	Decision      string    `json:"decision,omitempty"`
	Reason        string    `json:"reason,omitempty"`
	SystemMessage string    `json:"systemMessage,omitempty"`
	Specific      *specific `json:"hookSpecificOutput,omitempty"`
}

type specific struct {
	Event             string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// encode writes a as one line of JSON, <, > and & as they are (the
// reader is an agent, not a web page).
func encode(a answer) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(a) // strings only: cannot fail
	return b.Bytes()
}
