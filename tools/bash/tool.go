package bash

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// Name is the Bash tool's name.
const Name = "Bash"

//go:embed bash.md
var description string

// Definition returns the Bash tool's definition.
func Definition() tools.Definition {
	return tools.Definition{
		Name:        Name,
		Description: description,
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"command":{"type":"string","minLength":1,"description":"The command to run with bash"},` +
			`"timeout_ms":{"type":"integer","minimum":1,"description":"How long the command may run, in milliseconds"}},` +
			`"required":["command"],"additionalProperties":false}`),
	}
}

// Input is the Bash tool's input.
type Input struct {
	Command   string `json:"command"`
	TimeoutMS *int64 `json:"timeout_ms,omitempty"`
}

// ParseInput decodes and checks a Bash input.
func ParseInput(raw json.RawMessage) (Input, error) {
	var in Input
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("invalid Bash input: %w", err)
	}
	if in.Command == "" {
		return in, fmt.Errorf("'command' is required and cannot be empty")
	}
	if in.TimeoutMS != nil && *in.TimeoutMS < 1 {
		return in, fmt.Errorf("'timeout_ms' must be 1 or more")
	}
	return in, nil
}

// Handler returns the Bash tool backed by r. Output streams live to the
// context's output writer (tools.WithOutput) and through an offload spool
// configured by off, so output of any size runs in bounded memory: past the
// threshold the content is the offload pointer. A command that fails is an
// is_error result whose content ends with its trailer line. The result's
// Meta is the command's Outcome.
func Handler(r *Runner, defaultTimeout time.Duration, off offload.Config) tools.Handler {
	return func(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
		in, err := ParseInput(raw)
		if err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
		timeout := defaultTimeout
		if in.TimeoutMS != nil {
			timeout = time.Duration(*in.TimeoutMS) * time.Millisecond
		}
		spool, err := offload.NewSpool(off, tools.ToolUseIDFrom(ctx))
		if err != nil {
			// An id that cannot name a file: keep the output in memory.
			spool, _ = offload.NewSpool(offload.Config{}, "")
		}
		var out io.Writer = spool
		if live := tools.OutputFrom(ctx); live != nil {
			out = io.MultiWriter(spool, live)
		}
		outcome, err := r.Run(ctx, in.Command, timeout, out)
		if err != nil {
			return tools.Result{}, err
		}
		if t := outcome.Trailer(); t != "" {
			sep := ""
			if spool.Len() > 0 && !spool.EndsWithNewline() {
				sep = "\n"
			}
			io.WriteString(spool, sep+t+"\n")
		}
		sum := spool.Close()
		res := tools.Result{IsError: outcome.Failed(), Meta: outcome, OffloadErr: sum.Err}
		if sum.Offloaded {
			res.Content = offload.Pointer(sum.File)
			res.Offloaded = &tools.Offloaded{Path: sum.File, Preview: sum.Preview, Lines: sum.Lines, Bytes: sum.Bytes}
			return res, nil
		}
		res.Content = sum.Text
		return res, nil
	}
}
