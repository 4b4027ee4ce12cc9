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
	"slices"
	"strings"
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
	allow, deny []Rule
	mode        Mode
	dir, home   string
	readOnly    func(tool string) bool
}

// Config is what a Policy is made of.
type Config struct {
	Allow, Deny []Rule
	Mode        Mode
	Dir         string // the working directory
	Home        string // for ~ in rules
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
	return &Policy{allow: cfg.Allow, deny: cfg.Deny, mode: cfg.Mode, dir: dir, home: cfg.Home, readOnly: cfg.ReadOnly}
}

// Mode returns the policy's mode.
func (p *Policy) Mode() Mode { return p.mode }

// Allow adds an allow rule (a person answered "always").
func (p *Policy) Allow(r Rule) { p.allow = append(p.allow, r) }

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
	// for a whole session (see Risky): they ask every time.
	Risky []string
}

// ask is the Ask decision whose one needed rule is r.
func ask(r Rule, why string) Decision {
	return Decision{Verdict: Ask, Rule: r, Why: why, Rules: []Rule{r}, Always: []Rule{r}}
}

// Check decides a call of tool with input (the tool_use input JSON).
func (p *Policy) Check(tool string, input json.RawMessage) Decision {
	switch tool {
	case "Bash":
		var in struct {
			Command string `json:"command"`
		}
		_ = json.Unmarshal(input, &in) // a bad input is the tool's to refuse
		return p.checkBash(in.Command)
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

// checkBash: deny if any part matches a deny rule; allow if every part
// matches an allow rule (or the mode bypasses); ask otherwise.
func (p *Policy) checkBash(command string) Decision {
	parts, ok := commands(command)
	if !ok {
		parts = []string{command}
	}
	for _, part := range append(parts, strings.TrimSpace(command)) {
		if r, hit := p.match(p.deny, "Bash", func(spec string) bool { return bashMatch(spec, part) }); hit {
			return Decision{Verdict: Denied, Rule: r}
		}
	}
	if p.mode == ModeBypass {
		return Decision{Verdict: Allowed}
	}
	if !ok {
		return ask(Rule{Tool: "Bash", Specifier: strings.TrimSpace(command), HasSpec: true}, "the command could not be split into its parts")
	}
	// The whole line matched by one rule (an exact rule written for it).
	if r, hit := p.match(p.allow, "Bash", func(spec string) bool {
		return !strings.HasSuffix(spec, ":*") && spec == strings.TrimSpace(command)
	}); hit && len(parts) > 0 {
		return Decision{Verdict: Allowed, Rule: r}
	}
	var last Rule
	d := Decision{Verdict: Ask}
	var unallowed []string
	for _, part := range parts {
		r, hit := p.match(p.allow, "Bash", func(spec string) bool { return bashMatch(spec, part) })
		if hit {
			last = r
			continue
		}
		unallowed = append(unallowed, part)
		s := Suggest(part)
		if !slices.Contains(d.Rules, s) {
			d.Rules = append(d.Rules, s)
		}
		if Risky(part) {
			d.Risky = append(d.Risky, part)
		} else if !slices.Contains(d.Always, s) {
			d.Always = append(d.Always, s)
		}
	}
	if len(parts) == 0 {
		return ask(Rule{Tool: "Bash"}, "")
	}
	if len(unallowed) == 0 {
		return Decision{Verdict: Allowed, Rule: last}
	}
	// A risky part's rule may also be a safe part's (rm -i x && rm -rf /):
	// it is not granted for the session then either.
	for _, part := range d.Risky {
		d.Always = slices.DeleteFunc(d.Always, func(r Rule) bool { return r == Suggest(part) })
	}
	d.Rule = d.Rules[0]
	if len(parts) > 1 {
		d.Why = quoteList(unallowed) + " is not allowed"
		if len(unallowed) > 1 {
			d.Why = quoteList(unallowed) + " are not allowed"
		}
	}
	return d
}

// quoteList is "a", "a" and "b", "a", "b" and "c".
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// bashMatch: "prefix:*" matches the prefix alone or followed by a blank;
// a specifier with * elsewhere is a wildcard pattern; otherwise the
// command must be exactly the specifier.
func bashMatch(spec, command string) bool {
	command = strings.TrimSpace(command)
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		return command == prefix || strings.HasPrefix(command, prefix+" ") || strings.HasPrefix(command, prefix+"\t")
	}
	if strings.Contains(spec, "*") {
		return wildcard(spec, command)
	}
	return command == spec
}

// wildcard matches s against pattern, where * stands for any text.
func wildcard(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}

// Suggest is the rule that "always" adds for a command: its first word
// (two for a command with subcommands such as git or npm) as a prefix.
func Suggest(command string) Rule {
	words := strings.Fields(command)
	if len(words) == 0 {
		return Rule{Tool: "Bash"}
	}
	n := 1
	switch words[0] {
	case "git", "npm", "go", "cargo", "make", "docker", "kubectl", "yarn", "pnpm", "pip", "apt", "apt-get":
		if len(words) > 1 && !strings.HasPrefix(words[1], "-") {
			n = 2
		}
	}
	return Rule{Tool: "Bash", Specifier: strings.Join(words[:n], " ") + ":*", HasSpec: true}
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
	if tool == "Read" {
		return Decision{Verdict: Allowed}
	}
	inside := within(abs, p.dir)
	if p.mode == ModeBypass {
		return Decision{Verdict: Allowed}
	}
	for _, k := range kinds {
		for _, r := range p.allow {
			if r.Tool != k {
				continue
			}
			if inside && (!r.HasSpec || pathOK(r.Specifier)) {
				return Decision{Verdict: Allowed, Rule: r}
			}
			// Outside the working directory only a rule that names the
			// path (anchored at / or ~) allows it.
			if !inside && r.HasSpec && anchored(r.Specifier) && pathOK(r.Specifier) {
				return Decision{Verdict: Allowed, Rule: r}
			}
		}
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
func ParseSettings(data []byte) (allow, deny []Rule, err error) {
	var s Settings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, nil, err
	}
	if allow, err = ParseRules(s.Permissions.Allow); err != nil {
		return nil, nil, err
	}
	if deny, err = ParseRules(s.Permissions.Deny); err != nil {
		return nil, nil, err
	}
	return allow, deny, nil
}

// Home is the user's home directory for ~ in rules ("" when unknown).
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
