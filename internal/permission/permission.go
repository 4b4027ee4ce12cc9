// Package permission decides whether the agent may run a tool call: rules
// in Claude Code's syntax (Bash(git status), Bash(npm run test:*),
// Edit(src/**), Read(~/.ssh/**)) from flags and settings files, a mode, and
// what each tool declares (a read-only tool never asks). Deny wins over
// allow; a compound shell command is allowed only when every command in it
// is; Write and Edit outside the working directory (symbolic links
// resolved) need a rule that names the path.
package permission

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// Mode is how much is allowed without a rule.
type Mode string

// The modes, by Claude Code's names.
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "acceptEdits"       // Write/Edit inside the working directory
	ModeBypass      Mode = "bypassPermissions" // everything (--dangerously-skip-permissions)
)

// ParseMode checks a --permission-mode value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeDefault, ModeAcceptEdits, ModeBypass:
		return m, nil
	}
	return "", fmt.Errorf("--permission-mode must be default, acceptEdits or bypassPermissions, got %q", s)
}

// Rule is one permission rule: a tool name and an optional specifier.
type Rule struct {
	Tool      string
	Specifier string // "" for the whole tool
	HasSpec   bool
}

// String is the rule in Claude Code's syntax.
func (r Rule) String() string {
	if !r.HasSpec {
		return r.Tool
	}
	return r.Tool + "(" + r.Specifier + ")"
}

// ParseRule reads "Tool" or "Tool(specifier)".
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if s == "" || strings.ContainsAny(s, ") \t") {
			return Rule{}, fmt.Errorf("permission rule %q: want Tool or Tool(specifier)", s)
		}
		return Rule{Tool: s}, nil
	}
	if !strings.HasSuffix(s, ")") || open == 0 {
		return Rule{}, fmt.Errorf("permission rule %q: want Tool or Tool(specifier)", s)
	}
	spec := s[open+1 : len(s)-1]
	if spec == "" || spec == "*" {
		return Rule{Tool: s[:open]}, nil
	}
	return Rule{Tool: s[:open], Specifier: spec, HasSpec: true}, nil
}

// ParseRules reads a list of rules; each entry may hold several separated
// by commas or spaces outside parentheses (as --allowedTools takes them).
func ParseRules(list []string) ([]Rule, error) {
	var out []Rule
	for _, entry := range list {
		for _, s := range splitRules(entry) {
			r, err := ParseRule(s)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// splitRules splits on commas and blanks outside parentheses.
func splitRules(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',', ' ', '\t':
			if depth == 0 {
				if t := strings.TrimSpace(s[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// Policy decides tool calls. Build it with New; Allow adds rules as the
// person grants them ("always").
type Policy struct {
	allow, ask, deny []Rule
	mode             Mode
	dir, home        string
	configDirs       []string // todo-shell's own settings directories (protected)
	readOnly         func(tool string) bool

	mu   sync.Mutex                // serializes reading bash
	bash atomic.Pointer[bashRules] // the Bash rules read; nil until a check needs them, and after Allow

	// readers are the bashReaders of the Bash checks: a parser's buffers
	// and the arrays of a line's commands are made once, not per check.
	readers sync.Pool
	// bashOptions are what a Bash line is read with.
	bashOptions bashline.Options
}

// Config is what a Policy is made of.
type Config struct {
	Allow, Ask, Deny []Rule
	Mode             Mode
	Dir              string // the working directory
	Home             string // for ~ in rules
	// ConfigDir is the user's todo-shell settings directory
	// ($XDG_CONFIG_HOME/todo-shell): a protected path, as every
	// .todo-shell directory is.
	ConfigDir string
	// ReadOnly reports whether a tool changes nothing outside todo-shell's
	// own state (tools.Definition.ReadOnly); such a tool never asks.
	ReadOnly func(tool string) bool
}

// New returns the policy of cfg.
func New(cfg Config) *Policy {
	if cfg.Mode == "" {
		cfg.Mode = ModeDefault
	}
	if cfg.ReadOnly == nil {
		cfg.ReadOnly = func(string) bool { return false }
	}
	dir := cfg.Dir
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	p := &Policy{allow: cfg.Allow, ask: cfg.Ask, deny: cfg.Deny, mode: cfg.Mode, dir: dir, home: cfg.Home, readOnly: cfg.ReadOnly}
	p.bashOptions = bashline.Options{ReadFile: p.readScript}
	for _, d := range []string{cfg.ConfigDir, filepath.Join(cfg.Home, ".config", "todo-shell")} {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p.configDirs = append(p.configDirs, p.resolve(d))
	}
	return p
}

// Mode returns the policy's mode.
func (p *Policy) Mode() Mode { return p.mode }

// Allow adds an allow rule (a person answered "always").
func (p *Policy) Allow(r Rule) {
	p.allow = append(p.allow, r)
	p.bash.Store(nil)
}

// Verdict is what a call needs.
type Verdict int

// The verdicts.
const (
	Allowed Verdict = iota
	Ask             // a person must say yes
	Denied          // a deny rule matched
)

// Decision is the verdict on one call, with what explains it.
type Decision struct {
	Verdict Verdict
	// Rule is the rule that decided (Allowed, Denied), or for Ask the rule
	// that would allow the call.
	Rule Rule
	// Why says in a few words why a person is asked or the call refused
	// (the compound parts not allowed, a path outside the working
	// directory).
	Why string
	// Rules, for Ask, are every rule the call needs: one for each part of
	// a compound command that no rule allows (Rule is the first).
	Rules []Rule
	// Always, for Ask, are the rules a person may grant for the session:
	// Rules less those of the Risky parts.
	Always []Rule
	// Risky are the parts no rule allows that are too dangerous to allow
	// for a whole session: they ask every time (rm, a write outside the
	// working directory, a protected path, a command not known before it
	// runs).
	Risky []string
	// Protected is the protected path the call writes, when that is why it
	// asks, and ProtectedWhat what that path is ("todo-shell's own
	// settings").
	Protected, ProtectedWhat string
}

// askRule is the decision of a call an ask rule names: it asks each time.
func askRule(r Rule) Decision {
	return Decision{Verdict: Ask, Rule: r, Why: "the rule " + r.String() + " in the ask list asks each time"}
}

// ask is the Ask decision whose one needed rule is r.
func ask(r Rule, why string) Decision {
	return Decision{Verdict: Ask, Rule: r, Why: why, Rules: []Rule{r}, Always: []Rule{r}}
}

// Check decides a call of tool with input (the tool_use input JSON).
func (p *Policy) Check(tool string, input json.RawMessage) Decision {
	switch tool {
	case "Bash":
		return p.checkBash(bashCommand(input))
	case "Read", "Write", "Edit":
		var in struct {
			FilePath string `json:"file_path"`
		}
		_ = json.Unmarshal(input, &in)
		return p.checkPath(tool, in.FilePath)
	}
	if r, ok := p.match(p.deny, tool, nil); ok {
		return Decision{Verdict: Denied, Rule: r}
	}
	if r, ok := p.match(p.ask, tool, nil); ok {
		return askRule(r)
	}
	if p.readOnly(tool) || p.mode == ModeBypass {
		return Decision{Verdict: Allowed}
	}
	if r, ok := p.match(p.allow, tool, nil); ok {
		return Decision{Verdict: Allowed, Rule: r}
	}
	return ask(Rule{Tool: tool}, "")
}

// match returns the first rule of rules for tool whose specifier ok
// accepts (nil: only whole-tool rules).
func (p *Policy) match(rules []Rule, tool string, ok func(spec string) bool) (Rule, bool) {
	for _, r := range rules {
		if r.Tool != tool {
			continue
		}
		if !r.HasSpec || (ok != nil && ok(r.Specifier)) {
			return r, true
		}
	}
	return Rule{}, false
}

// checkPath decides Read, Write and Edit by path.
func (p *Policy) checkPath(tool, path string) Decision {
	abs := p.resolve(path)
	pathOK := func(spec string) bool { return p.pathMatch(spec, abs) }
	// An Edit rule covers Write too (both change files), as in Claude Code.
	kinds := []string{tool}
	if tool == "Write" {
		kinds = append(kinds, "Edit")
	}
	for _, k := range kinds {
		if r, hit := p.match(p.deny, k, pathOK); hit {
			return Decision{Verdict: Denied, Rule: r}
		}
	}
	for _, k := range kinds {
		if r, hit := p.match(p.ask, k, pathOK); hit {
			return askRule(r)
		}
	}
	if tool == "Read" || p.mode == ModeBypass {
		return Decision{Verdict: Allowed}
	}
	inside := within(abs, p.dir)
	if prot, what := p.Protected(abs); prot {
		return p.protectedWrite(tool, abs, kinds, what)
	}
	if r, ok := p.allowedPath(kinds, abs, inside); ok {
		return Decision{Verdict: Allowed, Rule: r}
	}
	if inside && p.mode == ModeAcceptEdits {
		return Decision{Verdict: Allowed}
	}
	r := Rule{Tool: tool, Specifier: p.display(abs), HasSpec: true}
	if !inside {
		r.Specifier = "/" + abs // //abs: an absolute path in rule syntax
		return ask(r, "outside the working directory")
	}
	return ask(r, "")
}

// protectedWrite decides a Write or Edit of a protected path: only a rule
// that names the path itself allows it; else it asks, with no "always".
func (p *Policy) protectedWrite(tool, abs string, kinds []string, what string) Decision {
	for _, k := range kinds {
		for _, r := range p.allow {
			if r.Tool == k && r.HasSpec && !strings.Contains(r.Specifier, "*") && p.pathMatch(r.Specifier, abs) {
				return Decision{Verdict: Allowed, Rule: r}
			}
		}
	}
	r := Rule{Tool: tool, Specifier: p.ruleSpec(abs), HasSpec: true}
	return Decision{Verdict: Ask, Rule: r, Rules: []Rule{r}, Why: p.display(abs) + " is " + what + ": writing it asks in every mode but bypassPermissions",
		Risky: []string{p.display(abs)}, Protected: p.display(abs), ProtectedWhat: what}
}

// allowedPath is the allow rule of one of kinds (Write, Edit) for abs:
// inside the working directory a whole-tool rule or one whose path
// matches; outside, only a rule that names the path (anchored at / or ~).
func (p *Policy) allowedPath(kinds []string, abs string, inside bool) (Rule, bool) {
	for _, k := range kinds {
		for _, r := range p.allow {
			if r.Tool != k {
				continue
			}
			if inside && (!r.HasSpec || p.pathMatch(r.Specifier, abs)) {
				return r, true
			}
			if !inside && r.HasSpec && anchored(r.Specifier) && p.pathMatch(r.Specifier, abs) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// ruleSpec is the specifier of a rule naming abs alone: relative inside the
// working directory, ~/… under the home directory, //abs elsewhere.
func (p *Policy) ruleSpec(abs string) string {
	if within(abs, p.dir) {
		return p.display(abs)
	}
	if p.home != "" {
		home := p.home
		if h, err := filepath.EvalSymlinks(home); err == nil {
			home = h
		}
		if rel, err := filepath.Rel(home, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + rel
		}
	}
	return "/" + abs
}

// resolve makes path absolute (relative to the working directory) and
// resolves symbolic links in the part of it that exists.
func (p *Policy) resolve(path string) string {
	if path == "" {
		return p.dir
	}
	if strings.HasPrefix(path, "~/") && p.home != "" {
		path = filepath.Join(p.home, path[2:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, path)
	}
	path = filepath.Clean(path)
	// Resolve the longest existing prefix; append the rest.
	rest := ""
	for cur := path; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// display is abs relative to the working directory when inside it.
func (p *Policy) display(abs string) string {
	if rel, err := filepath.Rel(p.dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return abs
}

// anchored reports whether a path specifier names a place independent of
// the working directory.
func anchored(spec string) bool {
	return strings.HasPrefix(spec, "//") || strings.HasPrefix(spec, "~/")
}

// pathMatch matches abs against a gitignore-style specifier: //abs is an
// absolute path, ~/x is under the home directory, /x and x are relative to
// the working directory; ** spans directories, * stays within one.
func (p *Policy) pathMatch(spec, abs string) bool {
	var pattern string
	switch {
	case strings.HasPrefix(spec, "//"):
		pattern = spec[1:]
	case strings.HasPrefix(spec, "~/"):
		if p.home == "" {
			return false
		}
		pattern = filepath.Join(p.home, spec[2:])
		if strings.HasSuffix(spec, "/") {
			pattern += "/"
		}
	case strings.HasPrefix(spec, "/"):
		pattern = p.dir + spec
	default:
		pattern = p.dir + "/" + spec
	}
	return globMatch(pattern, abs)
}

// globMatch matches a path against a pattern with ** and *; a pattern
// ending in / matches everything under it.
func globMatch(pattern, path string) bool {
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	return globParts(strings.Split(pattern, "/"), strings.Split(path, "/"))
}

func globParts(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(parts); i++ {
				if globParts(pat[1:], parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, err := filepath.Match(pat[0], parts[0]); err != nil || !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// Settings is the part of a settings file this package reads.
type Settings struct {
	Permissions struct {
		Allow []string `json:"allow"`
		Ask   []string `json:"ask"`
		Deny  []string `json:"deny"`
	} `json:"permissions"`
}

// SettingsPaths are the settings files read, in order: the user's
// ($XDG_CONFIG_HOME/todo-shell/settings.json, ~/.config when unset) and
// the project's (.todo-shell/settings.json in dir).
func SettingsPaths(dir string, getenv func(string) string) []string {
	var out []string
	cfg := getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		if home := getenv("HOME"); home != "" {
			cfg = filepath.Join(home, ".config")
		}
	}
	if cfg != "" {
		out = append(out, filepath.Join(cfg, "todo-shell", "settings.json"))
	}
	return append(out, filepath.Join(dir, ".todo-shell", "settings.json"))
}

// ParseSettings reads a settings file's rules.
func ParseSettings(data []byte) (allow, ask, deny []Rule, err error) {
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, nil, nil, err
	}
	if allow, err = ParseRules(s.Permissions.Allow); err != nil {
		return nil, nil, nil, err
	}
	if ask, err = ParseRules(s.Permissions.Ask); err != nil {
		return nil, nil, nil, err
	}
	if deny, err = ParseRules(s.Permissions.Deny); err != nil {
		return nil, nil, nil, err
	}
	return allow, ask, deny, nil
}

// Home is the user's home directory for ~ in rules ("" when unknown).
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
