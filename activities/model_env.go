package activities

import (
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolpipe/toolpipe/toolenv"
)

// modelEnvOptions are the settings the Anthropic SDK would read from the
// environment itself, read here from the held secrets (toolenv/held.go): once
// worker.HideSecrets took ANTHROPIC_* out of the process environment, the SDK's
// own defaults no longer see them. ANTHROPIC_AUTH_TOKEN is sent as a bearer token
// when no API key is set, and ANTHROPIC_CUSTOM_HEADERS (one "Name: value" a line)
// are added, as the SDK does.
func modelEnvOptions() []option.RequestOption {
	var opts []option.RequestOption
	if tok := toolenv.Getenv("ANTHROPIC_AUTH_TOKEN"); tok != "" && toolenv.Getenv("ANTHROPIC_API_KEY") == "" {
		opts = append(opts, option.WithAuthToken(tok))
	}
	for _, line := range strings.Split(toolenv.Getenv("ANTHROPIC_CUSTOM_HEADERS"), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "" {
			opts = append(opts, option.WithHeader(strings.TrimSpace(name), strings.TrimSpace(value)))
		}
	}
	return opts
}
