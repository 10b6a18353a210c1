package activities

import (
	"fmt"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// bashNoOutput is Claude Code's result for a command that succeeded silently: an
// empty result would leave the model unsure the command ran.
const bashNoOutput = "(Bash completed with no output)"

// bashResult words a finished command's result as Claude Code does: the output
// (stdout and stderr as they interleaved) without surrounding blank lines, after
// "Exit code N" when the command failed, or the timeout when it was killed.
func bashResult(out tool.Output, exitCode int, timedOut bool, timeoutMs int) tool.Output {
	body := strings.TrimRight(out.Content, " \t\r\n")
	body = strings.TrimLeft(body, "\r\n")
	var head string
	switch {
	case timedOut:
		head = fmt.Sprintf("Command timed out after %dms and was killed", timeoutMs)
	case exitCode != 0:
		head = fmt.Sprintf("Exit code %d", exitCode)
	}
	out.IsError = head != ""
	switch {
	case head == "" && body == "":
		out.Content = bashNoOutput
	case head == "":
		out.Content = body
	case body == "":
		out.Content = head
	default:
		out.Content = head + "\n" + body
	}
	return out
}
