package main

import (
	"github.com/toolpipe/toolpipe/toolenv"
	"github.com/toolpipe/toolpipe/workflows"
)

// checkPromptModel refuses settings with prompt hooks (which ask a model) when this
// process runs the worker and the worker would have no model: every such hook would
// fail and let its call through. With a cluster the workers' environment is theirs,
// so the check is left to them (the hook then reports that it could not run).
func (e *env) checkPromptModel(s *workflows.TurnSettings) error {
	if s == nil || !s.Hooks.HasPrompt() || !e.conn.Embedded || toolenv.Getenv("ANTHROPIC_API_KEY") != "" {
		return nil
	}
	return badInput("the settings have prompt hooks, which ask a model, but ANTHROPIC_API_KEY is not set: " +
		"set it (and ANTHROPIC_BASE_URL for another endpoint), or make them command hooks")
}
