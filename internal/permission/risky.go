package permission

import (
	"path"
	"strings"
)

// riskyCommand reports whether a command's prefix rule (rm:*) would allow
// far more than the call asked about: it deletes or overwrites files,
// changes modes or owners, or runs text as a command.
func riskyCommand(name string) bool {
	switch name {
	case "rm", "rmdir", "shred", "unlink", "truncate", "dd", "chmod", "chown", "chgrp", "eval":
		return true
	}
	return name == "mkfs" || strings.HasPrefix(name, "mkfs.")
}

// asOther reports whether a command runs its arguments as another user:
// risky anywhere in a command.
func asOther(name string) bool {
	switch name {
	case "sudo", "doas", "su", "pkexec":
		return true
	}
	return false
}

// wrapper reports whether a command runs the command that follows it
// (after its options).
func wrapper(name string) bool {
	switch name {
	case "env", "command", "nohup", "time", "nice", "xargs", "exec", "builtin":
		return true
	}
	return false
}

// Risky reports whether a simple command (one part of a command line, as
// the policy splits it) is too dangerous to allow for a whole session with
// a prefix rule, so that it asks every time: it deletes or overwrites
// files (rm, rmdir, shred, unlink, truncate, dd, mkfs…, find -delete or
// -exec), changes modes or owners (chmod, chown, chgrp), evaluates text
// (eval), runs as another user (sudo, doas, su, pkexec anywhere in it), or
// redirects output over a file (> f, >> f, &> f; not > /dev/null nor
// 2>&1). Leading VAR=value assignments and wrappers (env, command, nohup,
// time, nice, xargs, exec, builtin, with their options) are looked through.
func Risky(part string) bool {
	words, overwrites := shellWords(part)
	if overwrites {
		return true
	}
	for _, w := range words {
		if asOther(path.Base(w)) {
			return true
		}
	}
	i := 0
	for i < len(words) && (isAssignment(words[i]) || wrapper(path.Base(words[i])) || i > 0 && strings.HasPrefix(words[i], "-")) {
		i++
	}
	if i == len(words) {
		return false
	}
	name := path.Base(words[i])
	if riskyCommand(name) {
		return true
	}
	if name == "find" {
		for _, w := range words[i+1:] {
			switch w {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir":
				return true
			}
		}
	}
	return false
}

// isAssignment reports whether w is VAR=value.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for _, c := range w[:eq] {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// shellWords splits a simple command into its words (quotes removed,
// roughly) and reports whether it redirects output over a file.
func shellWords(s string) (words []string, overwrites bool) {
	var cur strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			end()
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '>':
			end()
			last, over := redirection(s, i)
			overwrites = overwrites || over
			i = last
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, overwrites
}

// redirection reads the output redirection starting at s[i] (a '>') and
// returns the index of its last character and whether it writes over a
// file: a descriptor (>&2) or /dev/null does not.
func redirection(s string, i int) (last int, overwrites bool) {
	j := i + 1
	for j < len(s) && (s[j] == '>' || s[j] == '|') {
		j++
	}
	if j < len(s) && s[j] == '&' { // >&2: a descriptor
		return j, false
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	k := j
	for k < len(s) && !strings.ContainsRune(" \t;|&<>", rune(s[k])) {
		k++
	}
	target := strings.Trim(s[j:k], `'"`)
	return k - 1, target != "/dev/null"
}
