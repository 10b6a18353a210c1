package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/viper"
)

// strictReader reads typed values from viper and collects, for each key whose value
// does not parse, an error naming the key, the value and what is allowed. viper's
// own getters fall back to the zero value on a bad one, which would run the command
// with a port 0, a UI switched off or a 0s timeout that nobody asked for.
type strictReader struct {
	v    *viper.Viper
	errs []error
}

func (r *strictReader) fail(key string, raw any, want string) {
	r.errs = append(r.errs, fmt.Errorf("%s %s is not %s", key, quote(raw), want))
}

// quote shows a value as the user wrote it: a string quoted, anything else (a list,
// a map from the file) in Go's notation.
func quote(raw any) string {
	if s, ok := raw.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%v", raw)
}

// scalar is the value's text when it is a single value, not a list or a map.
func scalar(raw any) (string, bool) {
	switch x := raw.(type) {
	case string:
		return x, true
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool:
		return fmt.Sprint(x), true
	case time.Duration:
		return x.String(), true
	}
	return "", false
}

func (r *strictReader) str(key string) string {
	raw := r.v.Get(key)
	if raw == nil {
		return ""
	}
	s, ok := scalar(raw)
	if !ok {
		r.fail(key, raw, "a single value (a list or a map was given)")
		return ""
	}
	return s
}

func (r *strictReader) integer(key string) int {
	raw := r.v.Get(key)
	if raw == nil {
		return 0
	}
	s, ok := scalar(raw)
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if !ok || err != nil {
		r.fail(key, raw, "a whole number")
		return 0
	}
	return n
}

func (r *strictReader) boolean(key string, def bool) bool {
	raw := r.v.Get(key)
	if raw == nil {
		return def
	}
	s, ok := scalar(raw)
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if !ok || err != nil {
		r.fail(key, raw, "true or false")
		return def
	}
	return b
}

func (r *strictReader) duration(key string) time.Duration {
	raw := r.v.Get(key)
	if raw == nil {
		return 0
	}
	if d, ok := raw.(time.Duration); ok {
		return d
	}
	s, ok := scalar(raw)
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if !ok || err != nil {
		r.fail(key, raw, "a duration such as 30s, 5m or 1h")
		return 0
	}
	return d
}
