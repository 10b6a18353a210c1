package readonly

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Assignments only change the shell's variables, but some variables make the
// shell or an allowed program run other code, write, or read files other than
// those it names (PATH picks what "ls" means, GIT_EXTERNAL_DIFF runs a program,
// PS4 is expanded under set -x, BASH_CMDS[ls]=x makes ls run x, GLOBIGNORE makes
// * match dot files). Every way of assigning counts, not only NAME=value: read,
// for and select loops, ${NAME:=word} and ${NAME=word}, export and local, and
// a {NAME}<file redirection. A variable reaches programs only when exported,
// but any variable may already be exported (the worker's environment is not
// known here, and set -a is refused), so the name alone decides.

// assignReason judges an explicit assignment (NAME=value, also inside export,
// local and readonly).
func assignReason(a *syntax.Assign) string {
	if a.Index != nil {
		if r := arithReason(a.Index); r != "" {
			return r
		}
	}
	if a.Name == nil {
		return ""
	}
	v, known := "", a.Value == nil
	if a.Value != nil && a.Index == nil && a.Array == nil && !a.Append {
		v, known = static(a.Value)
	}
	if a.Naked {
		// export NAME: the value is whatever the variable already holds.
		known = false
	}
	return variableReason(a.Name.Value, v, known)
}

// variableReason says why setting name to value (known says whether value
// is fixed) is not read-only, or "".
func variableReason(name, value string, known bool) string {
	if strings.HasSuffix(name, "PAGER") && known && (value == "" || value == "cat") {
		return "" // GIT_PAGER=cat is the common way to keep git from paging
	}
	if localeVariable(name) {
		if known && safeLocale(value) {
			return ""
		}
		return fmt.Sprintf("setting %s to a locale that is not known can change how later lines are read", name)
	}
	if riskyVariable(name) {
		return fmt.Sprintf("setting %s can make programs run other programs or read other files", name)
	}
	return ""
}

// implicitReason judges a name some construct assigns without NAME=value; its
// value is only known when the command runs.
func implicitReason(how, name string) string {
	if !validName(name) {
		return how + " assigns a computed or subscripted name"
	}
	if r := variableReason(name, "", false); r != "" {
		return how + ": " + r
	}
	return ""
}

// riskyVariable reports whether a variable steers the shell, the dynamic
// loader or an allowed program towards other code or files.
func riskyVariable(name string) bool {
	switch name {
	case "PATH", "ENV", "SHELLOPTS", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND",
		"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "EDITOR", "VISUAL",
		"HISTFILE", "RIPGREP_CONFIG_PATH", "SSH_ASKPASS", "SHELL", "CDPATH", "GLOBIGNORE",
		"EXECIGNORE", "FIGNORE", "HOSTFILE", "INPUTRC", "POSIXLY_CORRECT", "TMPDIR", "PWD", "OLDPWD",
		"MAGIC", "TERMINFO", "TERMINFO_DIRS", "TERMCAP", "GREP_OPTIONS", "TZDIR",
		// glibc ignores these in setuid programs because they load code or files.
		"GETCONF_DIR", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH", "NIS_PATH", "NLSPATH",
		"RESOLV_HOST_CONF", "RES_OPTIONS", "GLIBC_TUNABLES",
		// The message catalogs of $"..." and of gettext-using programs.
		"TEXTDOMAIN", "TEXTDOMAINDIR":
		return true
	}
	// BASH covers BASH_ENV, BASHOPTS, BASH_FUNC_*, BASH_CMDS, BASH_ALIASES,
	// BASH_XTRACEFD, BASH_LOADABLES_PATH and BASH_COMPAT. GIT_DIR and
	// GIT_WORK_TREE pick a repository whose config can run programs, like
	// --git-dir.
	for _, prefix := range []string{"LD_", "DYLD_", "BASH", "GIT_", "GCONV_", "MALLOC_", "LESS"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return strings.HasSuffix(name, "PAGER") || strings.HasSuffix(strings.ToLower(name), "_proxy")
}

// localeVariable: the locale decides which bytes form a character, and so
// whether a byte such as "\" or "`" after a multibyte character is an escape
// for the rest of the script.
func localeVariable(name string) bool {
	return name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_")
}

// safeLocale accepts C, POSIX and UTF-8 locales (C.UTF-8, en_US.utf8), whose
// multibyte characters never contain an ASCII byte.
func safeLocale(v string) bool {
	if v == "" || v == "C" || v == "POSIX" {
		return true
	}
	name, charset, ok := strings.Cut(v, ".")
	if !ok || !(charset == "UTF-8" || charset == "utf8" || charset == "utf-8" || charset == "UTF8") {
		return false
	}
	return strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") == ""
}

// validName reports whether s is a shell variable name without a subscript.
func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// paramAssignReason catches ${NAME:=word} and ${NAME=word}, which assign.
func paramAssignReason(p *syntax.ParamExp) string {
	if p.Exp == nil || p.Param == nil {
		return ""
	}
	switch p.Exp.Op {
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return implicitReason("${"+p.Param.Value+":=...}", p.Param.Value)
	}
	return ""
}
