package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// Events are the hook events todo-shell answers for each agent, in the
// order the settings list them.
func Events(a Agent) []string {
	switch a {
	case Codex:
		return []string{"SessionStart", "UserPromptSubmit", "Stop", "SubagentStop"}
	case Gemini:
		return []string{"SessionStart", "BeforeAgent", "AfterAgent"}
	}
	return []string{"SessionStart", "UserPromptSubmit", "Stop", "SubagentStop"}
}

// SettingsFile is where Install writes, relative to the project: Claude
// Code's settings.local.json (not checked in), Codex's hooks.json, Gemini
// CLI's settings.json.
func SettingsFile(a Agent) string {
	switch a {
	case Codex:
		return filepath.Join(".codex", "hooks.json")
	case Gemini:
		return filepath.Join(".gemini", "settings.json")
	}
	return filepath.Join(".claude", "settings.local.json")
}

// Want is what the settings should hold: the hook command, and the status
// line command (Claude Code only; "" for none).
type Want struct {
	Agent      Agent
	Hook       string
	StatusLine string
}

// StatusLineRefresh is how often (seconds) Claude Code is asked to run the
// status line besides after each message (statusLine.refreshInterval,
// Claude Code 2.1.97 and later). Claude Code writes its transcript after
// it has run the status line for a message at times: without a refresh
// the line would show the plan before that message until the next one,
// which can be minutes away (a long tool call, a turn held by the API).
// A run reads only what the transcript gained, in about 10 ms.
const StatusLineRefresh = 2

// Quote makes s one word for the shell the agents run hook commands with.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && !strings.ContainsRune("/._-+=:,@%", r)
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Settings is the JSON to add for w, on its own.
func Settings(w Want) []byte {
	out, _, err := Merge(nil, w)
	if err != nil {
		panic(err) // an empty document always merges
	}
	return out
}

// ours reports whether a hook or status line command is todo-shell's:
// its program is named todo-shell and its first argument is sub (hook,
// statusline). (A command equal to the one being added is ours whatever
// the program is named.)
func ours(command, sub string) bool {
	f := strings.Fields(command)
	for len(f) > 0 && strings.Contains(f[0], "=") && !strings.ContainsAny(f[0], "/'\"") {
		f = f[1:] // NAME=value words before the program
	}
	if len(f) < 2 {
		return false
	}
	prog := strings.Trim(f[0], `'"`)
	return filepath.Base(prog) == "todo-shell" && f[1] == sub
}

// Merge adds what w wants to the settings document old (nil or empty: a
// new document) and returns the new one, indented, and notes for the
// person (a status line of another program, left as it was). Every key of
// old is kept, in its order; an event already holding a todo-shell hook
// gets no second one (its command is brought up to date); running Merge on
// its own output changes nothing. old that is not a JSON object is an
// error, and nothing is to be written.
func Merge(old []byte, w Want) ([]byte, []string, error) {
	var notes []string
	doc := &object{}
	if len(bytes.TrimSpace(old)) > 0 {
		var err error
		if doc, err = parseObject(old); err != nil {
			return nil, nil, err
		}
	}
	hooks := &object{}
	if raw, ok := doc.get("hooks"); ok {
		var err error
		if hooks, err = parseObject(raw); err != nil {
			return nil, nil, fmt.Errorf("\"hooks\": %w", err)
		}
	}
	for _, ev := range Events(w.Agent) {
		list, err := addHook(hooks, ev, w.Hook)
		if err != nil {
			return nil, nil, fmt.Errorf("\"hooks\".%q: %w", ev, err)
		}
		hooks.set(ev, list)
	}
	doc.set("hooks", hooks.encode())
	if w.StatusLine != "" {
		mine, _ := json.Marshal(struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Padding int    `json:"padding"`
			Refresh int    `json:"refreshInterval"`
		}{"command", w.StatusLine, 0, StatusLineRefresh})
		if raw, ok := doc.get("statusLine"); ok {
			var sl struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(raw, &sl) == nil && sl.Command != w.StatusLine && !ours(sl.Command, "statusline") {
				notes = append(notes, fmt.Sprintf("statusLine runs %q already: left as it is (set it to %q to see the plan there)", sl.Command, w.StatusLine))
				mine = nil
			}
		}
		if mine != nil {
			doc.set("statusLine", mine)
		}
	}
	var b bytes.Buffer
	if err := json.Indent(&b, doc.encode(), "", "  "); err != nil {
		return nil, nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), notes, nil
}

// addHook returns the event's list of matcher groups with todo-shell's
// command in it once.
func addHook(hooks *object, event, command string) (json.RawMessage, error) {
	var groups []json.RawMessage
	if raw, ok := hooks.get(event); ok {
		if err := json.Unmarshal(raw, &groups); err != nil {
			return nil, errors.New("not a list of hook groups")
		}
	}
	found := false
	for gi, g := range groups {
		group, err := parseObject(g)
		if err != nil {
			continue
		}
		raw, ok := group.get("hooks")
		if !ok {
			continue
		}
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			continue
		}
		changed := false
		for hi, h := range list {
			entry, err := parseObject(h)
			if err != nil {
				continue
			}
			cmdRaw, _ := entry.get("command")
			var cmd string
			if json.Unmarshal(cmdRaw, &cmd) != nil || cmd != command && !ours(cmd, "hook") {
				continue
			}
			found = true
			if cmd != command {
				c, _ := json.Marshal(command)
				entry.set("command", c)
				list[hi], changed = entry.encode(), true
			}
		}
		if changed {
			l, _ := json.Marshal(list)
			group.set("hooks", l)
			groups[gi] = group.encode()
		}
	}
	if !found {
		g, _ := json.Marshal(map[string]any{"hooks": []commandHook{{"command", command}}})
		groups = append(groups, g)
	}
	return json.Marshal(groups)
}

// commandHook is a hook entry as the settings list it.
type commandHook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// Install merges w into the settings file path (created, with its
// directory, when missing) and replaces it atomically: a temporary file in
// the same directory, synced, renamed over it, with the old file's mode.
// A symlink or anything but a regular file is refused, and a file that is
// not a JSON object is left alone: both are errors and nothing changes.
// changed is false when the file held everything already.
func Install(path string, w Want) (changed bool, notes []string, err error) {
	var old []byte
	mode := fs.FileMode(0o644)
	f, info, err := readgate.Open(path)
	switch {
	case err == nil:
		old, err = io.ReadAll(io.LimitReader(f, readgate.ListFile+1))
		_ = f.Close()
		if err != nil {
			return false, nil, err
		}
		if len(old) > readgate.ListFile {
			return false, nil, fmt.Errorf("%s: %w", path, readgate.ErrTooLarge)
		}
		mode = info.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
	default:
		return false, nil, err
	}
	out, notes, err := Merge(old, w)
	if err != nil {
		return false, nil, fmt.Errorf("%s: %w (nothing written)", path, err)
	}
	if bytes.Equal(out, old) {
		return false, notes, nil
	}
	if err := writeAtomic(path, out, mode); err != nil {
		return false, nil, err
	}
	return true, notes, nil
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(mode)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(f.Name())
	}
	return werr
}

// object is a JSON object whose keys keep their order.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

// parseObject reads a JSON object, keeping its keys' order (a repeated
// key keeps its first place and its last value, as encoding/json does).
func parseObject(b []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	o := &object{vals: map[string]json.RawMessage{}}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("not JSON: %w", err)
		}
		o.set(k, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not JSON: more after the object")
	}
	return o, nil
}

func (o *object) get(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) encode() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
