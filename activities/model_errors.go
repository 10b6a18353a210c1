package activities

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
)

// Error types of the Messages API that a retry can cure, also when they arrive as an
// SSE error event in the middle of a stream (whose HTTP status is 200).
var retryableAPITypes = map[string]bool{
	"overloaded_error": true, "api_error": true, "rate_limit_error": true, "timeout_error": true,
}

// modelError maps a failed model call to a Temporal failure: 429, 408/409, 5xx and 529
// overloaded are retried (after retry-after when the API gives one); every other 4xx is
// final, since the same request would be refused again; a request over the context
// window is typed ErrPromptTooLong, so that the session can compact and retry.
// Anything that is not an API answer (a reset connection, a timeout) is retried.
func modelError(err error) error {
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return temporal.NewApplicationErrorWithOptions("model: "+err.Error(), contract.ErrModelUnavailable, temporal.ApplicationErrorOptions{})
	}
	status, typ := apiErr.StatusCode, string(apiErr.Type())
	msg := fmt.Sprintf("model: %d %s", status, typ)
	if apiErr.Message != "" {
		msg += ": " + apiErr.Message
	}
	retryable := status == http.StatusTooManyRequests || status == http.StatusRequestTimeout ||
		status == http.StatusConflict || status >= 500 || (status < 400 && retryableAPITypes[typ])
	if !retryable {
		typ := contract.ErrModelRejected
		if status == http.StatusBadRequest && strings.HasPrefix(apiErr.Message, contract.PromptTooLongText) {
			typ = contract.ErrPromptTooLong
		}
		return temporal.NewApplicationErrorWithOptions(msg, typ, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return temporal.NewApplicationErrorWithOptions(msg, contract.ErrModelUnavailable,
		temporal.ApplicationErrorOptions{NextRetryDelay: retryAfter(apiErr.Response)})
}

// retryAfter reads the API's retry-after header (seconds); zero lets the retry
// policy choose.
func retryAfter(resp *http.Response) time.Duration {
	if resp == nil {
		return 0
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 && s <= 600 {
		return time.Duration(s) * time.Second
	}
	return 0
}
