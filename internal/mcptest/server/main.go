// Command server is the MCP server of toolpipe's tests, built with the go-sdk. It
// serves over stdio, or over streamable HTTP on 127.0.0.1 with -http (printing its
// URL as the first line of stdout). Its tools:
//
//   - echo (read-only): returns "echo: TEXT".
//   - gate (read-only): holds every call until WANT calls have arrived, which proves
//     they ran at the same time without timing anything.
//   - write_note (not read-only): appends TEXT to the notes file ($MCPTEST_NOTES, else
//     notes.txt in its directory) and says how many other calls were running.
//   - fail (read-only): returns an error result.
//   - crash (not read-only): the process exits at once.
//   - pid (read-only): the server's process id.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gateLimit bounds how long a gate call waits for the others, so that a test whose
// calls do not overlap fails with a clear result instead of hanging.
const gateLimit = 60 * time.Second

var (
	inFlight atomic.Int64

	gateMu      sync.Mutex
	gateArrived int
	gateChanged = make(chan struct{})
)

type textIn struct {
	Text string `json:"text" jsonschema:"the text"`
}

type gateIn struct {
	ID   string `json:"id" jsonschema:"names the call in its result"`
	Want int    `json:"want" jsonschema:"how many gate calls must have arrived before any returns"`
}

type emptyIn struct{}

func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// counted tracks the calls running now.
func counted[In any](h mcp.ToolHandlerFor[In, any]) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, r *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		inFlight.Add(1)
		defer inFlight.Add(-1)
		return h(ctx, r, in)
	}
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, nil)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes the text.", Annotations: ro},
		counted(func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
			return text("echo: %s", in.Text), nil, nil
		}))
	mcp.AddTool(s, &mcp.Tool{Name: "gate", Description: "Waits until `want` gate calls have arrived.", Annotations: ro},
		counted(func(ctx context.Context, _ *mcp.CallToolRequest, in gateIn) (*mcp.CallToolResult, any, error) {
			return gate(ctx, in), nil, nil
		}))
	mcp.AddTool(s, &mcp.Tool{Name: "write_note", Description: "Appends the text to the notes file."},
		counted(func(_ context.Context, _ *mcp.CallToolRequest, in textIn) (*mcp.CallToolResult, any, error) {
			others := inFlight.Load() - 1
			path := os.Getenv("MCPTEST_NOTES")
			if path == "" {
				path = "notes.txt"
			}
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, nil, err
			}
			defer f.Close()
			if _, err := fmt.Fprintln(f, in.Text); err != nil {
				return nil, nil, err
			}
			return text("noted %q; %d other calls were running", in.Text, others), nil, nil
		}))
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("this tool always fails")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "pid", Description: "Returns the server's process id.", Annotations: ro},
		func(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
			return text("%d", os.Getpid()), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits the server process."},
		func(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "mcptest: crashing on request")
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

// gate returns once `want` calls have arrived, or after gateLimit with an error.
func gate(ctx context.Context, in gateIn) *mcp.CallToolResult {
	gateMu.Lock()
	gateArrived++
	close(gateChanged)
	gateChanged = make(chan struct{})
	timeout := time.After(gateLimit)
	for gateArrived < in.Want {
		ch := gateChanged
		gateMu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "gate cancelled"}}}
		case <-timeout:
			gateMu.Lock()
			n := gateArrived
			gateMu.Unlock()
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{
				Text: fmt.Sprintf("gate %s: only %d of %d calls arrived", in.ID, n, in.Want)}}}
		}
		gateMu.Lock()
	}
	gateMu.Unlock()
	return text("gate %s passed", in.ID)
}

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on this address (127.0.0.1:0 picks a port) instead of stdio")
	flag.Parse()
	s := newServer()
	if *addr == "" {
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
			os.Exit(1)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireToken(h))
	if err := http.Serve(ln, mux); err != nil {
		fmt.Fprintln(os.Stderr, "mcptest:", err)
		os.Exit(1)
	}
}

// requireToken checks the Authorization header when $MCPTEST_TOKEN is set, so tests
// can prove the configured headers arrive.
func requireToken(h http.Handler) http.Handler {
	want := os.Getenv("MCPTEST_TOKEN")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if want != "" && r.Header.Get("Authorization") != "Bearer "+want {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
