// Package fakeanthropic is a scripted stand-in for the Anthropic Messages API: an HTTP
// server on 127.0.0.1 that answers POST /v1/messages from a list of responses, in the
// streaming protocol the real API speaks (server-sent events message_start,
// content_block_start, content_block_delta with text_delta and input_json_delta,
// content_block_stop, message_delta with the stop_reason, message_stop), or with the
// HTTP errors the real API returns (429, 500, 529 overloaded, 400).
//
// It records every request it receives, so that tests can check the conversation the
// model was sent message by message, and it can pause between events, so that a test
// can prove that a tool started before the assistant message ended. It is used by the
// tests and by `starter agent --fake-model SCRIPT`, the offline example.
package fakeanthropic
