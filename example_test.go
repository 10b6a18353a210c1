package toolpipe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe"
)

// A tool with its own schema and concurrency rule: a status check only reads, so
// it runs beside other safe calls; a restart runs alone.
func ExampleNewTool() {
	service, err := toolpipe.NewTool(toolpipe.ToolSpec{
		Name:        "Service",
		Description: "Checks or restarts one of the team's services.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{
			"name":{"type":"string"},"action":{"enum":["status","restart"]}},
			"required":["name","action"],"additionalProperties":false}`),
		IsConcurrencySafe: func(input json.RawMessage) bool {
			var in struct{ Action string }
			return json.Unmarshal(input, &in) == nil && in.Action == "status"
		},
		Interrupt:          toolpipe.InterruptCancel,
		MaxResultSizeChars: 10_000,
		Run: func(ctx context.Context, call toolpipe.Call) (toolpipe.Result, error) {
			return toolpipe.Result{Content: "ok"}, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(service.IsConcurrencySafe(json.RawMessage(`{"name":"api","action":"status"}`)))
	fmt.Println(service.IsConcurrencySafe(json.RawMessage(`{"name":"api","action":"restart"}`)))
	fmt.Println(service.ValidateInput(json.RawMessage(`{"name":"api"}`)))
	// Output:
	// true
	// false
	// InputValidationError: Service failed due to the following issue:
	// The required parameter `action` is missing
}

// Names of built-in tools and MCP's prefix are refused when the tool is defined.
func ExampleNewTool_collision() {
	run := func(context.Context, toolpipe.Call) (toolpipe.Result, error) { return toolpipe.Result{}, nil }
	schema := json.RawMessage(`{"type":"object"}`)
	for _, name := range []string{"Read", "mcp__deploy__preview", "Deploy Preview"} {
		_, err := toolpipe.NewTool(toolpipe.ToolSpec{Name: name, Description: "d", InputSchema: schema, Run: run})
		fmt.Println(err)
	}
	// Output:
	// tool name "Read" is a built-in tool's; pick another name
	// tool name "mcp__deploy__preview" starts with "mcp__", which names MCP servers' tools; pick another name
	// tool name "Deploy Preview" is not 1-64 letters, digits, '_' or '-' (what the Messages API accepts)
}

// toolpipe in a program's own worker, beside the program's workflows, on the
// program's task queue.
func ExampleRegister() {
	c, err := client.Dial(client.Options{}) // TEMPORAL_ADDRESS or localhost:7233
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	w := sdkworker.New(c, "my-agents", toolpipe.WorkerOptions(sdkworker.Options{}))
	// w.RegisterWorkflow(MyWorkflow) ...
	reg, err := toolpipe.Register(w, toolpipe.Options{
		StateDir: "/var/lib/my-agents", // shared by every worker and client of the queue
		Tools:    []*toolpipe.Tool{ /* your tools */ },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Close()
	if err := w.Run(sdkworker.InterruptCh()); err != nil {
		log.Fatal(err)
	}
}

// A turn from a client: the tool_use blocks of one assistant message, and the
// tool_result blocks in arrival order.
func ExampleClient_StartTurn() {
	c, err := client.Dial(client.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	tp := toolpipe.NewClient(c, "my-agents")
	turn, err := tp.StartTurn(ctx, "turn-42", toolpipe.TurnInput{
		SessionID: "s42", Workdir: "/srv/repo", CloseIntake: true,
		Blocks: []toolpipe.Block{
			{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"git status --short"}`)},
			{ID: "toolu_2", Name: "DeployPreview", Input: json.RawMessage(`{"branch":"feature-x","dry_run":true}`)},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := turn.Result(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range res.Results {
		fmt.Println(r.ToolUseID, r.IsError, strings.SplitN(r.Content, "\n", 2)[0])
	}
}

// An agent session: the model calls tools (the built-in ones and the registered
// custom ones) until it is done.
func ExampleClient_StartSession() {
	c, err := client.Dial(client.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	s, err := toolpipe.NewClient(c, "my-agents").StartSession(ctx, toolpipe.SessionInput{
		SessionID: "release-notes", Workdir: "/srv/repo", Prompt: "Deploy a preview of feature-x",
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.Result(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintln(os.Stdout, res.StopReason, res.Text)
}
