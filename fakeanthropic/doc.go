// Package fakeanthropic is a scripted stand-in for the Anthropic Messages API, for
// testing agents built on toolpipe and for running them offline: an HTTP server on
// 127.0.0.1 that answers POST /v1/messages from a list of responses, in the
// streaming protocol the real API speaks (server-sent events message_start,
// content_block_start, content_block_delta with text_delta and input_json_delta,
// content_block_stop, message_delta with the stop_reason, message_stop), or with the
// HTTP errors the real API returns, in its words and bytes (401 for a missing or
// wrong key, 429, 500, 529 overloaded, 400 invalid_request_error, 400 "prompt is
// too long: N tokens > M maximum" past a context window).
//
// It behaves like the API where a client depends on it: it checks the conversation
// (roles alternate, every tool_result answers a tool_use of the message before),
// counts tokens (BytesPerToken bytes of the request's JSON each), reports usage
// with prompt-cache reads and writes at the cache_control breakpoints, and honours
// an API key. It records every request, so that a test can check what the model was
// sent message by message, and can pause between events, so that a test can prove
// that a tool started before the assistant message ended.
//
// Point an Anthropic client at Server.URL (toolpipe's worker: ANTHROPIC_BASE_URL, or
// toolpipe.Model{BaseURL}); `starter agent --fake-model SCRIPT` and
// examples/customtool do so.
//
// # Script files
//
// LoadScript reads a script, a JSON object (the Script and Response types):
//
//	{
//	  "context_window": 60000,        // optional: refuse requests over it, as the API does
//	  "api_key": "sk-…",              // optional: the only key accepted (401 otherwise)
//	  "min_cache_tokens": 1024,       // optional: the shortest cached prefix (-1: every one)
//	  "responses": [
//	    {"content": [
//	       {"type": "text", "text": "I'll look at the Go files."},
//	       {"type": "tool_use", "id": "toolu_1", "name": "Glob", "input": {"pattern": "**/*.go"}}
//	     ],
//	     "delay_ms": 20},                                  // pause before every event
//	    {"when": "Your context window is nearly full",     // only for a request whose last
//	     "content": [{"type": "text", "text": "Summary: …"}]}, // message contains this
//	    {"status": 529},                                   // an error answer
//	    {"status": 429, "retry_after": 2},
//	    {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
//	     "fail_after_blocks": 1},                          // an SSE error after one block
//	    {"content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}
//	  ]
//	}
//
// Each request takes the first unused response whose "when" is empty or is found in
// the request's last message (its text or tool_result content), so concurrent
// sessions (sub-agents) get their own answers whatever order they call in; a request
// with none left gets a 400 naming it. A response is either content (text and
// tool_use blocks; "stop_reason" defaults to tool_use when there is a tool_use, else
// end_turn) or an error: "status" (400-599) with "error_type" and "error_message"
// overriding the API's defaults for that status, and "retry_after" in seconds.
// "fail_after_blocks": N streams N blocks and then an SSE error event ("error_type",
// default overloaded_error), as the API does when it fails mid-stream;
// "drop_after_blocks": N closes the connection there instead. Go code can also
// script holds (Response.HoldBeforeEnd, HoldAfterBlock) and add responses to a
// running server (Server.Add).
package fakeanthropic
