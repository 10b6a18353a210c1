package activities

import (
	"testing"

	"go.temporal.io/sdk/activity"

	"github.com/toolpipe/toolpipe/contract"
)

// nameRecorder is a worker.ActivityRegistry that keeps the registered names.
type nameRecorder []string

func (r *nameRecorder) RegisterActivity(any)                                         {}
func (r *nameRecorder) RegisterDynamicActivity(any, activity.DynamicRegisterOptions) {}
func (r *nameRecorder) RegisterActivityWithOptions(_ any, o activity.RegisterOptions) {
	*r = append(*r, o.Name)
}

// Every activity type toolpipe registers, other than a tool's own, is one a custom
// tool may not take: adding an activity without listing it in contract fails here.
func TestEveryRegisteredActivityIsReserved(t *testing.T) {
	acts, err := New(Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := NewAgent(AgentConfig{StateDir: t.TempDir(), APIKey: "k", BaseURL: "http://127.0.0.1:1", Intake: noIntake{}})
	if err != nil {
		t.Fatal(err)
	}
	var names nameRecorder
	acts.Register(&names)
	agent.Register(&names)
	for _, n := range names {
		if _, isTool := acts.Registry().Lookup(n); isTool {
			continue
		}
		if !contract.ReservedName(n) {
			t.Errorf("activity %q is registered but not reserved in contract", n)
		}
	}
	if len(names) < 10 {
		t.Fatalf("only %d activities recorded: %v", len(names), names)
	}
}
