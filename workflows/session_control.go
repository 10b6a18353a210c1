package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/permissions"
)

// What a client that drives a session the way the Claude Agent SDK drives Claude
// Code (cmd/toolpipe-claude) changes while it runs: the permission mode and the
// model of the calls to come, and an interrupt that ends the prompt.
const (
	// ConfigureUpdate changes the permission mode of the turns to come and the
	// model of the calls to come (ConfigureRequest); the running turn and model
	// call keep theirs. Continue-as-new carries the change.
	ConfigureUpdate = "Configure"
	// InterruptPromptSignal interrupts the running turn (as SessionInterruptSignal)
	// and ends the prompt once the turn has its results, instead of sending them
	// to the model: the Claude Agent SDK's interrupt. The results are stored, so
	// the next prompt continues a whole conversation.
	InterruptPromptSignal = "InterruptPrompt"
)

// StopInterrupted: the prompt was ended by InterruptPromptSignal.
const StopInterrupted = "interrupted"

// ConfigureRequest is ConfigureUpdate's argument; an empty field changes nothing.
type ConfigureRequest struct {
	PermissionMode string `json:"permission_mode,omitempty"`
	Model          string `json:"model,omitempty"`
}

// registerControl installs ConfigureUpdate and InterruptPromptSignal. Neither adds
// a command on its own, so histories recorded before them replay unchanged.
func (s *session) registerControl(ctx workflow.Context) error {
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ConfigureUpdate,
		func(ctx workflow.Context, req ConfigureRequest) error {
			if req.PermissionMode != "" {
				m, _ := permissions.ParseMode(req.PermissionMode) // checked by the validator
				s.setMode(m)
			}
			if req.Model != "" {
				s.model.Model, s.in.Model.Model = req.Model, req.Model
			}
			s.publish(ctx)
			return nil
		},
		workflow.UpdateHandlerOptions{
			Validator: func(ctx workflow.Context, req ConfigureRequest) error {
				if req.PermissionMode != "" {
					if _, err := permissions.ParseMode(req.PermissionMode); err != nil {
						return err
					}
					if s.in.Settings == nil || s.in.Settings.Permissions == nil {
						return errors.New("the session enforces no permissions (it started without a permission mode or rules): start it with one to change it")
					}
				}
				if s.stopReason != "" {
					return fmt.Errorf("the session has ended (%s): start it again with the new settings", s.stopReason)
				}
				return nil
			},
			Description: "Change the permission mode of the turns to come and the model of the calls to come.",
		}); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		ch := workflow.GetSignalChannelWithOptions(ctx, InterruptPromptSignal,
			workflow.SignalChannelOptions{Description: "Interrupt the running turn and end the prompt once it has its results (the Claude Agent SDK's interrupt)."})
		for {
			ch.Receive(ctx, nil)
			s.promptInterrupted = true
			s.interruptTurn(ctx, InterruptRequest{NoMessage: true})
		}
	})
	return nil
}

// setMode makes m the permission mode of the turns to come. The settings are the
// workflow input's: they are copied, not changed in place.
func (s *session) setMode(m permissions.Mode) {
	st := *s.in.Settings
	pol := *st.Permissions
	pol.Mode = m
	st.Permissions = &pol
	s.in.Settings = &st
}

// interruptedStop ends the prompt after a step that InterruptPromptSignal
// interrupted, unless something else already ended it.
func (s *session) interruptedStop() {
	if s.promptInterrupted && (s.stopReason == "" || s.stopReason == StopMaxTurns || s.stopReason == StopMaxBudget) {
		s.stopReason = StopInterrupted
	}
}
