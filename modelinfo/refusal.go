package modelinfo

import (
	"regexp"
	"strconv"
)

// tooLongRE finds the figures of the Messages API's refusal of a request over the
// context window: `prompt is too long: 208310 tokens > 200000 maximum` (a 400
// invalid_request_error; proxies pass the same text on, sometimes inside their own).
var tooLongRE = regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+) maximum`)

// TooLong is what a refusal says: the request's tokens and the window it passed.
type TooLong struct {
	Tokens  int `json:"tokens"`
	Maximum int `json:"maximum"`
}

// ParseTooLong reads the figures of a "prompt is too long" refusal anywhere in msg.
// ok is false when msg names none (another error, or a refusal worded otherwise):
// the caller then knows nothing new about the window.
func ParseTooLong(msg string) (TooLong, bool) {
	m := tooLongRE.FindStringSubmatch(msg)
	if m == nil {
		return TooLong{}, false
	}
	tokens, err1 := strconv.Atoi(m[1])
	maximum, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || maximum <= 0 {
		return TooLong{}, false
	}
	return TooLong{Tokens: tokens, Maximum: maximum}, true
}
