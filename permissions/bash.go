package permissions

import (
	"errors"
	"strings"
)

// compileBash reads a Bash specifier: "npm test" exact, "git push:*" the
// legacy prefix form, and anything else with '*' a wildcard. Bash(*) is the
// same rule as Bash, so it is normalised to it.
func compileBash(spec string) (string, matcher, error) {
	if spec == "*" {
		return "", matcher{}, nil
	}
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		prefix = strings.TrimSpace(prefix)
		switch {
		case prefix == "":
			return "", matcher{}, errors.New("the ':*' prefix form needs a command before ':*'")
		case strings.Contains(prefix, "*"):
			return "", matcher{}, errors.New("the ':*' prefix form cannot also contain '*'; write the pattern with '*' alone")
		}
		return prefix + ":*", matcher{kind: bashPrefix, text: prefix}, nil
	}
	if strings.Contains(spec, "*") {
		return spec, matcher{kind: bashWildcard, text: spec}, nil
	}
	return spec, matcher{kind: bashExact, text: spec}, nil
}

// matchCommand reports whether one simple command, as normalised by
// splitBash, matches a Bash rule's specifier.
func matchCommand(m matcher, cmd string) bool {
	switch m.kind {
	case matchAll:
		return true
	case bashExact:
		return cmd == m.text
	case bashPrefix:
		// A word boundary is required: git:* must not match gitk.
		return cmd == m.text || len(cmd) > len(m.text) && cmd[len(m.text)] == ' ' && strings.HasPrefix(cmd, m.text)
	case bashWildcard:
		if wildcardMatch(m.text, cmd) {
			return true
		}
		// Claude Code lets "ls *" match a bare "ls": a trailing " *" that is
		// the only wildcard means "with any arguments, or none".
		base, ok := strings.CutSuffix(m.text, " *")
		return ok && cmd == base && !strings.Contains(base, "*")
	}
	return false
}

// wildcardMatch matches s against pattern, anchored at both ends, where '*'
// stands for any sequence of bytes (spaces included) and every other byte
// for itself. It backtracks only to the last star, so it runs in
// O(len(pattern)*len(s)) at worst, without allocating.
func wildcardMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			mark++
			p, i = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// A wrapper runs the command after its own options; Claude Code strips
// timeout, nice and nohup before matching so that Bash(npm test) covers
// "timeout 60 npm test". Deny and ask rules see through more wrappers, and
// through leading assignments and program paths, because for them a miss is
// the dangerous mistake: Bash(rm:*) must catch "env X=1 /bin/rm -rf x".
func unwrap(lits []string, i int, forDeny bool) (int, bool) {
	if i >= len(lits) {
		return i, false
	}
	j := i + 1
	switch lits[i] {
	case "nohup":
	case "nice":
		for j < len(lits) {
			v := lits[j]
			if v == "-n" || v == "--adjustment" {
				j += 2
			} else if v == "--" {
				j++
				break
			} else if strings.HasPrefix(v, "-") {
				j++ // -n5, -10, --adjustment=5
			} else {
				break
			}
		}
	case "timeout":
		for j < len(lits) && strings.HasPrefix(lits[j], "-") {
			v := lits[j]
			j++
			if v == "--" {
				break
			}
			if v == "-s" || v == "-k" || v == "--signal" || v == "--kill-after" {
				j++
			}
		}
		j++ // the duration
	case "command", "builtin", "exec":
		if !forDeny {
			return i, false
		}
		for j < len(lits) && strings.HasPrefix(lits[j], "-") {
			if lits[j] == "-a" { // exec -a NAME
				j++
			}
			j++
		}
	case "env":
		if !forDeny {
			return i, false
		}
		for j < len(lits) && (strings.HasPrefix(lits[j], "-") || strings.Contains(lits[j], "=")) {
			if v := lits[j]; v == "-u" || v == "--unset" || v == "-C" || v == "--chdir" || v == "-S" {
				j++
			}
			j++
		}
	default:
		return i, false
	}
	return j, j < len(lits)
}

// variants returns the texts of one simple command that rules are tried
// against: the command as written and, when it differs, the command with its
// wrappers removed (for deny and ask also its leading assignments, and its
// program path reduced to the program name). The second is computed once per
// part, because every rule asks for it again.
func (p *bashPart) variants(forDeny bool) (written, unwrapped string) {
	k := 0
	if forDeny {
		k = 1
	}
	if !p.unwrappedDone[k] {
		p.unwrapped[k], p.unwrappedDone[k] = p.stripped(forDeny), true
	}
	return p.text, p.unwrapped[k]
}

func (p *bashPart) stripped(forDeny bool) string {
	i := p.assigns
	for {
		next, ok := unwrap(p.lits, i, forDeny)
		if !ok {
			break
		}
		i = next
	}
	if i >= len(p.words) {
		return ""
	}
	var words []string
	if forDeny {
		name := p.words[i]
		if p.lits[i] != nonStatic {
			name = p.lits[i]
			if k := strings.LastIndexByte(name, '/'); k >= 0 && k < len(name)-1 {
				name = name[k+1:]
			}
		}
		words = append([]string{name}, p.words[i+1:]...)
	} else {
		if i == p.assigns {
			return ""
		}
		words = append(append([]string{}, p.words[:p.assigns]...), p.words[i:]...)
	}
	if u := strings.Join(words, " "); u != p.text {
		return u
	}
	return ""
}
