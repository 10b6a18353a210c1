package activities

import (
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolpipe/toolpipe/toolenv"
)

// ModelEndpoint is where and how a worker reaches the Messages API. It is one
// configuration for the three model users of a worker (sessions' model calls and
// compactions, prompt hooks, WebFetch's page model), so that a program that sets
// it (toolpipe.Options.Model) sets it for all three. Its secrets live only in the
// worker: they are never part of an activity's input, so never in history.
type ModelEndpoint struct {
	// APIKey authenticates to the Messages API (ANTHROPIC_API_KEY).
	APIKey string
	// AuthToken is sent as a bearer token when there is no API key
	// (ANTHROPIC_AUTH_TOKEN), as the SDK does.
	AuthToken string
	// BaseURL is any Anthropic-compatible endpoint; empty means Anthropic's.
	BaseURL string
	// Headers are added to every request (ANTHROPIC_CUSTOM_HEADERS).
	Headers map[string]string
	// HTTPClient, when set, makes the requests.
	HTTPClient *http.Client
}

// ModelEndpointFromEnv is the one place the worker reads its model endpoint from
// the environment: ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL and
// ANTHROPIC_CUSTOM_HEADERS (one "Name: value" a line). It reads them from the held
// secrets (toolenv/held.go): once HideSecrets took ANTHROPIC_* out of the process
// environment, the SDK's own defaults no longer see them.
func ModelEndpointFromEnv() ModelEndpoint {
	e := ModelEndpoint{APIKey: toolenv.Getenv("ANTHROPIC_API_KEY"), BaseURL: toolenv.Getenv("ANTHROPIC_BASE_URL")}
	if e.APIKey == "" {
		e.AuthToken = toolenv.Getenv("ANTHROPIC_AUTH_TOKEN")
	}
	for _, line := range strings.Split(toolenv.Getenv("ANTHROPIC_CUSTOM_HEADERS"), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "" {
			if e.Headers == nil {
				e.Headers = map[string]string{}
			}
			e.Headers[strings.TrimSpace(name)] = strings.TrimSpace(value)
		}
	}
	return e
}

// requestOptions are the SDK's options for the endpoint. The SDK's own retries are
// off: Temporal's retry policy decides for the model calls (every attempt visible
// in history), and WebFetch returns the page rather than wait on an overloaded
// model.
func (e ModelEndpoint) requestOptions() []option.RequestOption {
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithAPIKey(e.APIKey)}
	if e.APIKey == "" && e.AuthToken != "" {
		opts = append(opts, option.WithAuthToken(e.AuthToken))
	}
	for name, value := range e.Headers {
		opts = append(opts, option.WithHeader(name, value))
	}
	if e.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(e.BaseURL))
	}
	if e.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(e.HTTPClient))
	}
	return opts
}
