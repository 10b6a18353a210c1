package persistence

import "math"

// Unlimited is the threshold of a tool whose results are never persisted (Read:
// persisting a Read result would only make the model Read the persisted file). It
// equals tool.Unlimited, so declarations can be passed through unchanged.
const Unlimited = math.MaxInt

// DefaultMaxResultSizeChars caps every declared threshold (DESIGN §4, layer 1).
const DefaultMaxResultSizeChars = 50_000

// Threshold returns the persistence threshold in force for a tool, following the
// reference's getPersistenceThreshold:
//
//   - declared == Unlimited: Unlimited, whatever the override, so Read stays exempt;
//   - hasOverride with a positive, finite (< Unlimited) override: the override, which
//     may raise the threshold above the global default;
//   - otherwise min(declared, DefaultMaxResultSizeChars).
//
// A declared value <= 0 is treated as undeclared and gets the default cap rather than
// exemption: a tool that forgot to declare must not be able to push megabytes into
// workflow history.
func Threshold(declared, override int, hasOverride bool) int {
	if declared == Unlimited {
		return Unlimited
	}
	if hasOverride && override > 0 && override < Unlimited {
		return override
	}
	if declared <= 0 {
		return DefaultMaxResultSizeChars
	}
	return min(declared, DefaultMaxResultSizeChars)
}

// IsUnlimited reports whether threshold means "never persist" to Process and
// SpillWriter: Unlimited, or any value <= 0 (a non-positive limit would persist even
// empty output, which is never what a caller means).
func IsUnlimited(threshold int) bool {
	return threshold <= 0 || threshold == Unlimited
}
