// Package fakeanthropic is the fake Messages API under its former, internal path:
// every name forwards to github.com/toolpipe/toolpipe/fakeanthropic, where it lives
// and is documented (its script format included). The tests that import this path
// keep working; new code imports the public package.
package fakeanthropic

import "github.com/toolpipe/toolpipe/fakeanthropic"

// The fake's types, as the public package defines them.
type (
	// Script is fakeanthropic.Script.
	Script = fakeanthropic.Script
	// Response is fakeanthropic.Response.
	Response = fakeanthropic.Response
	// Server is fakeanthropic.Server.
	Server = fakeanthropic.Server
	// Request is fakeanthropic.Request.
	Request = fakeanthropic.Request
	// Usage is fakeanthropic.Usage.
	Usage = fakeanthropic.Usage
)

// BytesPerToken is fakeanthropic.BytesPerToken.
const BytesPerToken = fakeanthropic.BytesPerToken

// DefaultMinCacheTokens is fakeanthropic.DefaultMinCacheTokens.
const DefaultMinCacheTokens = fakeanthropic.DefaultMinCacheTokens

// Start is fakeanthropic.Start.
func Start(script Script) (*Server, error) { return fakeanthropic.Start(script) }

// LoadScript is fakeanthropic.LoadScript.
func LoadScript(path string) (Script, error) { return fakeanthropic.LoadScript(path) }
