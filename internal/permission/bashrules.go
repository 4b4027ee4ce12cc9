package permission

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// checkBash decides a Bash command line. The line is parsed as bash parses
// it, and every simple command it could run is judged on its own (see
// bashline.Commands), by the name bash would run:
//
//   - deny wins: a deny rule naming any command, at any level of its
//     wrappers, refuses the call, in every mode;
//   - an ask rule naming any command asks, in every mode;
//   - bypassPermissions allows the rest; but a line whose commands are not
//     all known (it does not parse, a name is $X) asks when a deny rule
//     could name what it runs;
//   - otherwise every command needs an allow rule, and a risky one (rm, a
//     write outside the working directory, sed -i…) or one that writes a
//     protected path needs a rule naming that exact command.
func (p *Policy) checkBash(command string) Decision {
	br, _ := p.readers.Get().(*bashReader)
	if br == nil {
		br = new(bashReader)
	}
	defer p.readers.Put(br)
	defer br.clear()
	line := br.r.Commands(command, p.bashOptions)
	whole := strings.TrimSpace(command)
	exact := Rule{Tool: "Bash", Specifier: whole, HasSpec: true}
	if line.Err != nil {
		return p.unparsed(whole, exact)
	}
	br.parts = p.parts(line, br.parts[:0])
	parts := br.parts
	if d, decided := p.denyOrAsk(parts, whole); decided {
		return d
	}
	if r, hit := p.exactRule(whole); hit {
		return Decision{Verdict: Allowed, Rule: r}
	}
	if p.mode == ModeBypass {
		for i := range parts {
			if parts[i].opaque != "" && p.hasBashDeny() {
				return Decision{Verdict: Ask, Rule: exact, Rules: []Rule{exact}, Risky: []string{parts[i].text()},
					Why: parts[i].opaque + ", and a deny rule could name it"}
			}
		}
		return Decision{Verdict: Allowed}
	}
	return p.allowAll(parts, whole, exact)
}

// bashReader is what a Bash check reads a line with, kept from check to
// check (in Policy.readers): a bashline.Reader, and the array of the
// line's parts. A decision holds nothing of either.
type bashReader struct {
	r     bashline.Reader
	parts []part
}

// clear drops the parts of the line checked.
func (br *bashReader) clear() {
	clear(br.parts)
	br.parts = br.parts[:0]
}

// unparsed decides a line that does not parse: only a rule naming it
// whole decides it; else it asks (in bypassPermissions, when a Bash deny
// rule could name what it runs).
func (p *Policy) unparsed(whole string, exact Rule) Decision {
	if r, hit := matchBash(p.bashRules().deny, []string{whole}, whole); hit {
		return Decision{Verdict: Denied, Rule: r}
	}
	if r, hit := matchBash(p.bashRules().ask, []string{whole}, whole); hit {
		return askRule(r)
	}
	if r, hit := p.exactRule(whole); hit {
		return Decision{Verdict: Allowed, Rule: r}
	}
	if p.mode == ModeBypass && !p.hasBashDeny() {
		return Decision{Verdict: Allowed}
	}
	return Decision{Verdict: Ask, Rule: exact, Rules: []Rule{exact}, Risky: []string{whole},
		Why: "it does not parse as bash, so what it runs is not known"}
}

// denyOrAsk applies the deny rules, then the ask rules, to every command
// at every level of its wrappers (and the deny rules to the whole line).
func (p *Policy) denyOrAsk(parts []part, whole string) (Decision, bool) {
	for i := range parts {
		if r, hit := matchLevels(p.bashRules().deny, &parts[i]); hit {
			return Decision{Verdict: Denied, Rule: r}, true
		}
	}
	if r, hit := matchBash(p.bashRules().deny, nil, whole); hit {
		return Decision{Verdict: Denied, Rule: r}, true
	}
	for i := range parts {
		if r, hit := matchLevels(p.bashRules().ask, &parts[i]); hit {
			return askRule(r), true
		}
	}
	return Decision{}, false
}

// allowAll allows the line when every part is allowed; else it asks,
// naming the parts no rule allows, the rules that would allow them, and
// the rules "always" may add.
func (p *Policy) allowAll(parts []part, whole string, exact Rule) Decision {
	d := Decision{Verdict: Ask}
	var last Rule
	var unallowed, whys []string
	for i := range parts {
		pt := &parts[i]
		r, ok, why := p.allowPart(pt)
		if ok {
			if r.Tool != "" {
				last = r
			}
			continue
		}
		text := cmp.Or(pt.text(), whole)
		if !slices.Contains(unallowed, text) {
			unallowed = append(unallowed, text)
		}
		if why != "" && !pt.quiet && !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
		if pt.protected != "" && d.Protected == "" {
			d.Protected, d.ProtectedWhat = pt.protected, pt.protectedWhy
		}
		d.need(pt, text, why, exact)
	}
	if len(unallowed) == 0 { // every part allowed; or nothing runs (a comment, X=1)
		return Decision{Verdict: Allowed, Rule: last}
	}
	d.Rule = d.Rules[0]
	switch {
	case len(parts) > 1 && len(unallowed) == 1:
		d.Why = quoteList(unallowed) + " is not allowed"
	case len(parts) > 1:
		d.Why = quoteList(unallowed) + " are not allowed"
	}
	if len(whys) > 0 {
		if d.Why != "" {
			d.Why += ": "
		}
		d.Why += strings.Join(whys, "; ")
	}
	return d
}

// need adds the rule a part no rule allows needs: for one that asks each
// time (why), the exact command's (the whole line's when it is opaque),
// kept out of "always"; else its prefix rule, which "always" may add.
func (d *Decision) need(pt *part, text, why string, exact Rule) {
	if why != "" {
		rule := Rule{Tool: "Bash", Specifier: text, HasSpec: true}
		if pt.opaque != "" {
			rule = exact
		}
		if !slices.Contains(d.Rules, rule) {
			d.Rules = append(d.Rules, rule)
		}
		d.Risky = append(d.Risky, text)
		return
	}
	s := Suggest(strings.Join(pt.cmd.Words, " "))
	if !slices.Contains(d.Rules, s) {
		d.Rules = append(d.Rules, s)
	}
	if !slices.Contains(d.Always, s) {
		d.Always = append(d.Always, s)
	}
}

// allowPart reports whether a part is allowed by the rules and the mode,
// with the rule that allows it. When it is not, why says what makes it ask
// each time ("" for a part a prefix rule would allow).
func (p *Policy) allowPart(pt *part) (Rule, bool, string) {
	text := pt.text()
	if pt.opaque != "" { // only the whole line's own rule, checked before
		if r, hit := p.wholeTool(); hit {
			return r, true, ""
		}
		return Rule{}, false, pt.opaque
	}
	if pt.protected != "" {
		if r, hit := p.exactRule(text); hit {
			return r, true, ""
		}
		return Rule{}, false, pt.protected + " is " + pt.protectedWhy + ": writing it asks in every mode but bypassPermissions"
	}
	if pt.cmd.Runner {
		return Rule{}, true, "" // its commands are judged each on its own
	}
	if len(pt.cmd.Words) == 0 { // redirections only
		if pt.risky == "" {
			return Rule{}, true, ""
		}
		if r, hit := p.exactRule(text); hit {
			return r, true, ""
		}
		if r, hit := p.wholeTool(); hit {
			return r, true, ""
		}
		return Rule{}, false, pt.risky
	}
	if r, hit := p.wholeTool(); hit {
		return r, true, ""
	}
	if pt.risky != "" {
		if r, hit := p.exactRule(text); hit {
			return r, true, ""
		}
		if r, hit := p.matchExact(pt.cmd.Words); hit {
			return r, true, ""
		}
		return Rule{}, false, pt.risky
	}
	if r, hit := matchBash(p.bashRules().allow, pt.cmd.Words, text); hit {
		return r, true, ""
	}
	return Rule{}, false, ""
}

// matchLevels returns the first Bash rule of rules (a deny or ask list)
// naming a part's command at some level of its wrappers, the outermost
// first, each also with its name's last path element (/bin/rm as rm).
func matchLevels(rules []bashRule, pt *part) (Rule, bool) {
	if len(rules) == 0 {
		return Rule{}, false
	}
	c := pt.cmd
	chain := c.Chain
	if len(chain) == 0 {
		if len(c.Words) == 0 {
			return Rule{}, false
		}
		chain = [][]string{c.Words}
	}
	text := pt.text()
	for _, words := range chain {
		if r, hit := matchBash(rules, words, text); hit {
			return r, true
		}
		if base := path.Base(words[0]); base != words[0] {
			if r, hit := matchBash(rules, append([]string{base}, words[1:]...), text); hit {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// hasBashDeny reports whether a deny rule names Bash commands.
func (p *Policy) hasBashDeny() bool {
	return len(p.bashRules().deny) > 0
}

// wholeTool is an allow rule for every Bash command.
func (p *Policy) wholeTool() (Rule, bool) {
	b := p.bashRules()
	return b.whole, b.hasWhole
}

// exactRule is an allow rule naming text exactly (no wildcard).
func (p *Policy) exactRule(text string) (Rule, bool) {
	text = strings.TrimSpace(text)
	for _, r := range p.bashRules().allow {
		if r.exact() && r.text == text {
			return r.Rule, true
		}
	}
	return Rule{}, false
}

// matchExact is an allow rule whose words are exactly words.
func (p *Policy) matchExact(words []string) (Rule, bool) {
	for _, r := range p.bashRules().allow {
		if r.exact() && slices.Equal(r.words, words) {
			return r.Rule, true
		}
	}
	return Rule{}, false
}

// matchBash returns the first Bash rule of rules matching a command (its
// words, or its text as written).
func matchBash(rules []bashRule, words []string, text string) (Rule, bool) {
	text = strings.TrimSpace(text)
	for i := range rules {
		if r := &rules[i]; !r.HasSpec || r.match(words, text) {
			return r.Rule, true
		}
	}
	return Rule{}, false
}

// bashRules are the Bash rules of a policy's lists, in their order, each
// specifier read once.
type bashRules struct {
	deny, ask, allow []bashRule
	// whole is the first allow rule for every Bash command, if hasWhole.
	whole    Rule
	hasWhole bool
}

// bashRule is a Bash rule with its specifier read: a prefix ("prefix:*",
// or "prefix *" with no other *), a pattern with another *, or exact
// words.
type bashRule struct {
	Rule
	prefix, wild bool
	words        []string // the prefix's words, or the specifier's
	text         string   // the prefix, or the specifier without blanks around it
}

// exact reports whether the rule names one command, with no wildcard.
func (r *bashRule) exact() bool { return r.HasSpec && !r.prefix && !r.wild }

// bashRules returns the policy's Bash rules, read at the first check and
// again after Allow.
func (p *Policy) bashRules() *bashRules {
	if b := p.bash.Load(); b != nil {
		return b
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.bash.Load(); b != nil {
		return b
	}
	b := &bashRules{deny: readBashRules(p.deny), ask: readBashRules(p.ask), allow: readBashRules(p.allow)}
	for _, r := range b.allow {
		if !r.HasSpec {
			b.whole, b.hasWhole = r.Rule, true
			break
		}
	}
	p.bash.Store(b)
	return b
}

// readBashRules reads the Bash rules of a list.
func readBashRules(rules []Rule) []bashRule {
	var out []bashRule
	for _, r := range rules {
		if r.Tool != "Bash" {
			continue
		}
		b := bashRule{Rule: r}
		if r.HasSpec {
			spec := r.Specifier
			prefix, isPrefix := strings.CutSuffix(spec, ":*")
			if !isPrefix && strings.HasSuffix(spec, " *") && strings.Count(spec, "*") == 1 {
				prefix, isPrefix = strings.TrimSuffix(spec, " *"), true
			}
			switch {
			case isPrefix:
				b.prefix, b.words, b.text = true, specWords(prefix), prefix
			case strings.Contains(spec, "*"):
				b.wild = true
			default:
				b.words, b.text = specWords(spec), strings.TrimSpace(spec)
			}
		}
		out = append(out, b)
	}
	return out
}

// match matches a Bash rule's specifier, in Claude Code's syntax, against
// a command's words (or its text as written, without blanks around it):
//
//   - "prefix:*", and "prefix *" with no other *, match the prefix's
//     words alone or followed by more words;
//   - another * stands for any text, the words joined by blanks;
//   - otherwise the words must be the specifier's words exactly.
func (r *bashRule) match(words []string, text string) bool {
	switch {
	case r.prefix:
		pw := r.words
		if len(words) >= len(pw) && len(pw) > 0 && slices.Equal(words[:len(pw)], pw) {
			return true
		}
		return text == r.text || words == nil && len(text) > len(r.text) && strings.HasPrefix(text, r.text) && text[len(r.text)] == ' '
	case r.wild:
		return words != nil && wildcard(r.Specifier, strings.Join(words, " ")) || text != "" && words == nil && wildcard(r.Specifier, text)
	}
	if words != nil && slices.Equal(words, r.words) {
		return true
	}
	return text != "" && text == r.text
}

// specWords are a specifier's words, as bash would split them.
func specWords(spec string) []string {
	w, err := bashline.Words(spec)
	if err != nil {
		w = strings.Fields(spec)
	}
	return w
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

// Suggest is the rule that "always" adds for a command (its words, the
// name first, as bash would run it): its first word (two for a command
// with subcommands such as git or npm) as a prefix.
func Suggest(command string) Rule {
	words := strings.Fields(command)
	if len(words) == 0 {
		return Rule{Tool: "Bash"}
	}
	n := 1
	switch path.Base(words[0]) {
	case "git", "npm", "go", "cargo", "make", "docker", "kubectl", "yarn", "pnpm", "pip", "apt", "apt-get":
		if len(words) > 1 && !strings.HasPrefix(words[1], "-") {
			n = 2
		}
	}
	return Rule{Tool: "Bash", Specifier: strings.Join(words[:n], " ") + ":*", HasSpec: true}
}
