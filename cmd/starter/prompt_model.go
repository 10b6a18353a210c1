package main

import (
	"errors"

	"github.com/toolpipe/toolpipe/toolenv"
)

// promptModel is the Go API's prompt-hook check (toolpipe.WithPromptHookCheck) of a
// process that runs the worker itself: settings with prompt hooks (which ask a
// model) are refused when that worker would have no model, since every such hook
// would fail and let its call through. With a cluster the workers' environment is
// theirs, so the check is left to them (the hook then reports that it could not
// run).
func promptModel() error {
	if toolenv.Getenv("ANTHROPIC_API_KEY") != "" {
		return nil
	}
	return errors.New("the settings have prompt hooks, which ask a model, but ANTHROPIC_API_KEY is not set: " +
		"set it (and ANTHROPIC_BASE_URL for another endpoint), or make them command hooks")
}
