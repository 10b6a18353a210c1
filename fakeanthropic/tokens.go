package fakeanthropic

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
)

// BytesPerToken is the fake's tokenizer: a token per four bytes of the request's JSON
// (tools, system blocks, message content blocks), about what the real tokenizer gives
// for English and code, so that usage and the context window scale with the request.
const BytesPerToken = 4

// DefaultMinCacheTokens is the shortest prefix the fake caches, as the real API
// does for Sonnet models (1,024 tokens); a shorter prefix with cache_control is
// neither written nor read.
const DefaultMinCacheTokens = 1024

// cacheLookback is how many blocks before a breakpoint the API looks for an earlier
// cached prefix (its documented 20-block lookback).
const cacheLookback = 20

// maxBreakpoints is how many cache_control blocks a request may carry.
const maxBreakpoints = 4

// Usage is what the fake reports for one request, in the API's fields.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// TotalInput is every input token of the request, cached or not: what counts
// against the context window.
func (u Usage) TotalInput() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// segment is one cacheable unit of a request in the API's prefix order (tools, then
// system, then messages): a tool definition, a system block or a content block.
type segment struct {
	tokens     int
	breakpoint bool
	// prefix is the hash of every segment up to and including this one.
	prefix [32]byte
}

// segments splits a request body into its prefix-ordered blocks.
func segments(body []byte) ([]segment, error) {
	var p struct {
		Tools    []json.RawMessage `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, err
	}
	var raws []json.RawMessage
	raws = append(raws, p.Tools...)
	raws = append(raws, blocksOf(p.System)...)
	for _, m := range p.Messages {
		// The role is part of the prefix: the same text as another role is another prompt.
		raws = append(raws, json.RawMessage(`"role:`+m.Role+`"`))
		raws = append(raws, blocksOf(m.Content)...)
	}
	out := make([]segment, 0, len(raws))
	h := [32]byte{}
	for _, r := range raws {
		// The marker is not content: a block is the same prefix with or without it.
		var obj map[string]json.RawMessage
		bp := false
		if json.Unmarshal(r, &obj) == nil && obj != nil {
			cc, ok := obj["cache_control"]
			bp = ok && string(cc) != "null"
			delete(obj, "cache_control")
			r, _ = json.Marshal(obj)
		}
		h = sha256.Sum256(append(h[:], r...))
		out = append(out, segment{
			tokens:     (len(r) + BytesPerToken - 1) / BytesPerToken,
			breakpoint: bp,
			prefix:     h,
		})
	}
	return out, nil
}

// blocksOf is a system or content value as its blocks: a string is one block.
func blocksOf(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var blocks []json.RawMessage
	if json.Unmarshal(raw, &blocks) == nil {
		return blocks
	}
	return []json.RawMessage{raw}
}

// account computes a request's input usage the way prompt caching bills it and
// records the prefixes it wrote: the longest earlier-cached prefix found at a
// breakpoint (or up to cacheLookback blocks before one) is read, the rest up to the
// last breakpoint is written, and what follows it is plain input.
func (s *Server) account(segs []segment) (Usage, error) {
	cum := make([]int, len(segs)+1) // cum[i]: tokens of segs[:i]
	var bps []int
	for i, sg := range segs {
		cum[i+1] = cum[i] + sg.tokens
		if sg.breakpoint {
			bps = append(bps, i)
		}
	}
	if len(bps) > maxBreakpoints {
		return Usage{}, fmt.Errorf("A maximum of %d blocks with cache_control may be provided. Found %d.", maxBreakpoints, len(bps))
	}
	total := cum[len(segs)]
	if len(bps) == 0 {
		return Usage{InputTokens: total}, nil
	}
	read := 0
	for _, bp := range bps {
		for j := bp; j >= 0 && j >= bp-cacheLookback; j-- {
			if s.cache[segs[j].prefix] && cum[j+1] > read {
				read = cum[j+1]
				break
			}
		}
	}
	last := bps[len(bps)-1]
	u := Usage{CacheReadInputTokens: read, InputTokens: total - cum[last+1]}
	if cum[last+1] >= s.minCache {
		u.CacheCreationInputTokens = cum[last+1] - read
		for _, bp := range bps {
			if cum[bp+1] >= s.minCache {
				s.cache[segs[bp].prefix] = true
			}
		}
	} else {
		u.InputTokens = total - read
	}
	return u, nil
}
