package readonly

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxCommand and maxNesting bound the input before it reaches the
// recursive parser: deep nesting such as 100,000 "(" takes it seconds and can
// overflow the stack, which no recover catches. Real commands stay far below.
const (
	maxCommand = 64 << 10
	maxNesting = 256
)

// TooBig reports whether command is too long or too deeply nested to hand
// to the shell parser safely. Every caller of mvdan.cc/sh in workflow code (this
// classifier, the permission rules) checks it first, through Parse: such a
// command is treated as unparsable.
func TooBig(command string) bool {
	return len(command) > maxCommand || tooDeep(command)
}

// Parse parses command as Bash for a decision about it: the read-only check,
// the paths it reads and the permission rules all read the same syntax tree.
// It refuses, with an error saying why, what the parser could read differently
// from bash (Mismatch), what is too big to parse safely (TooBig), and what does
// not parse; it never panics.
func Parse(command string) (*syntax.File, error) {
	f, reason := parse(command)
	if reason != "" {
		return nil, errors.New(reason)
	}
	return f, nil
}

func parse(command string) (file *syntax.File, reason string) {
	if TooBig(command) {
		return nil, "command is too long or too deeply nested to check"
	}
	if r := Mismatch(command); r != "" {
		return nil, r
	}
	defer func() {
		// The parser is third-party code; a panic in it must not take the
		// workflow down, and "not read-only" is always the safe answer.
		if recover() != nil {
			file, reason = nil, "cannot parse"
		}
	}()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, "cannot parse"
	}
	return f, ""
}

// Mismatch says why bash and mvdan.cc/sh could read command differently, or
// "". Measured against bash 5.2 for every byte from 0x01 to 0xff in words,
// quotes, comments, expansions, here-documents and between commands
// (TestParserAgreesWithBash): the parser takes a carriage return for a blank,
// where bash keeps it in the word, so "echo a\r# $(id)" is a comment to one and
// runs id in the other; it rejects invalid UTF-8, which bash reads as bytes.
// The other control characters agree today but carry meaning inside bash
// (0x01 and 0x7f quote internally) and no command needs them, so every
// control character but tab and newline is refused: a later parser or bash
// that reads one differently must not open a gap.
func Mismatch(command string) string {
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case c == '\r':
			return "the command contains a carriage return (\\r), which bash keeps in a word but the parser reads as a blank"
		case c < 0x20 && c != '\t' && c != '\n' || c == 0x7f:
			return fmt.Sprintf("the command contains the control character 0x%02x, which bash and the parser may read differently", c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(command[i:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Sprintf("the command contains the byte 0x%02x, which is not UTF-8: bash reads it as a byte, the parser not at all", c)
			}
			i += size - 1
		}
	}
	return ""
}

// tooDeep over-estimates how deeply command nests brackets and compound
// commands, ignoring quotes.
func tooDeep(command string) bool {
	depth, word := 0, 0
	for i := 0; i <= len(command); i++ {
		c := byte(';')
		if i < len(command) {
			c = command[i]
		}
		if strings.IndexByte(" \t\n;&|(){}[]`", c) < 0 {
			continue
		}
		switch command[word:i] {
		case "if", "while", "until", "for", "select", "case":
			depth++
		case "fi", "done", "esac":
			depth = max(depth-1, 0)
		}
		word = i + 1
		switch c {
		case '(', '{', '[', '`':
			depth++
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
		if depth > maxNesting {
			return true
		}
	}
	return false
}
