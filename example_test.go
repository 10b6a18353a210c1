package toolpipe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/envconfig"
	sdklog "go.temporal.io/sdk/log"
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
// program's task queue: the plugin registers toolpipe's workflows and activities
// when the worker starts, with the lost-worker records and sweep.
func ExampleNewPlugin() {
	c, err := client.Dial(client.Options{}) // TEMPORAL_ADDRESS or localhost:7233
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	p, err := toolpipe.NewPlugin(c, toolpipe.Options{
		StateDir: "/var/lib/my-agents", // shared by every worker and client of the queue
		Tools:    []*toolpipe.Tool{ /* your tools */ },
	})
	if err != nil {
		log.Fatal(err)
	}
	w := sdkworker.New(c, "my-agents", sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	// w.RegisterWorkflow(MyWorkflow) ...
	if err := w.Run(sdkworker.InterruptCh()); err != nil {
		log.Fatal(err)
	}
}

// A turn from a client: the tool_use blocks of one assistant message, started on a
// queue whose worker has toolpipe's plugin, and the tool_result blocks in arrival
// order as the turn yields them. Running the same message again attaches to the
// same turn and runs nothing again.
func ExampleClient_StartTurn() {
	opts := envconfig.MustLoadDefaultClientOptions() // TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE
	opts.Logger = sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	c, err := client.Dial(opts)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	stateDir, _ := os.MkdirTemp("", "toolpipe-state")
	defer os.RemoveAll(stateDir)
	p, err := toolpipe.NewPlugin(c, toolpipe.Options{StateDir: stateDir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		log.Fatal(err)
	}
	w := sdkworker.New(c, "example-turns", sdkworker.Options{Plugins: []sdkworker.Plugin{p}})
	if err := w.Start(); err != nil {
		log.Fatal(err)
	}
	defer w.Stop()

	work, _ := os.MkdirTemp("", "toolpipe-work")
	defer os.RemoveAll(work)
	os.WriteFile(filepath.Join(work, "main.go"), []byte("package main // TODO: greet\n"), 0o644)
	ctx := context.Background()
	tp := toolpipe.NewClient(c, "example-turns", toolpipe.WithStateDir(stateDir))
	message := []toolpipe.Block{
		{ID: "toolu_1", Name: "Glob", Input: json.RawMessage(`{"pattern":"*.go"}`)},
		{ID: "toolu_2", Name: "Grep", Input: json.RawMessage(`{"pattern":"TODO","output_mode":"content"}`)},
		{ID: "toolu_3", Name: "Deploy", Input: json.RawMessage(`{}`)},
	}
	turn, err := tp.StartTurn(ctx, message, toolpipe.TurnOptions{SessionID: "example", Workdir: work})
	if err != nil {
		log.Fatal(err)
	}
	res, err := turn.Follow(ctx, func(r toolpipe.ToolResult) {
		fmt.Println(r.ToolUseID, r.IsError, strings.SplitN(r.Content, "\n", 2)[0])
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(res.Results), "results; turn", turn.ID == toolpipe.TurnID("example", message))
	// Output:
	// toolu_1 false main.go
	// toolu_2 false main.go:1:package main // TODO: greet
	// toolu_3 true <tool_use_error>Error: No such tool available: Deploy</tool_use_error>
	// 3 results; turn true
}

// The workflow id of a turn: the same message in the same session names the same
// turn, whatever its inputs (a streamed message is named by its first block).
func ExampleTurnID() {
	fmt.Println(toolpipe.TurnID("s1", []toolpipe.Block{{ID: "toolu_01"}, {ID: "toolu_02"}}))
	fmt.Println(toolpipe.TurnID("s1", []toolpipe.Block{{ID: "toolu_01", Name: "Bash"}, {ID: "toolu_02", Name: "Read"}}))
	// Output:
	// turn-s1-6f65027045b821c1fcb855ce
	// turn-s1-6f65027045b821c1fcb855ce
}

// An agent session: the model calls tools (the built-in ones and the workers'
// custom ones) until it is done; the events are printed as they happen.
func ExampleClient_StartSession() {
	c, err := client.Dial(envconfig.MustLoadDefaultClientOptions())
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	tp := toolpipe.NewClient(c, "my-agents", toolpipe.WithStateDir("/var/lib/my-agents"))
	s, err := tp.StartSession(ctx, toolpipe.SessionOptions{
		SessionID: "release-notes", Workdir: "/srv/repo", Prompt: "Deploy a preview of feature-x",
		Settings: &toolpipe.Settings{TrustWorkspace: true}, MaxBudgetUSD: 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	res, err := s.Follow(ctx, func(e toolpipe.SessionEvent) {
		if e.Kind == toolpipe.EventToolUse {
			fmt.Println("->", e.Text)
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.StopReason, res.Text, res.Usage)
}
