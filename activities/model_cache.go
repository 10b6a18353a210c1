package activities

import (
	"github.com/anthropics/anthropic-sdk-go/v2"
)

// markCache puts prompt-cache breakpoints on a request (the API allows four), so that
// each model call reads what the previous one wrote instead of paying for the whole
// conversation again:
//
//   - the end of the fixed prefix: the last system block, or the last tool when there
//     is no system prompt (tools come first in the prefix);
//   - the end of the previous call's conversation, the message before the last
//     assistant one: an exact hit, however many blocks the newest messages add;
//   - the end of the conversation, which the next call reads.
//
// The same messages always get the same marks, so a retried call sends the same bytes.
func markCache(p *anthropic.MessageNewParams) {
	switch {
	case len(p.System) > 0:
		p.System[len(p.System)-1].CacheControl = anthropic.NewCacheControlEphemeralParam()
	case len(p.Tools) > 0:
		if t := p.Tools[len(p.Tools)-1].OfTool; t != nil {
			t.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
	}
	n := len(p.Messages)
	if n == 0 {
		return
	}
	markLast(p.Messages[n-1])
	for i := n - 2; i > 0; i-- {
		if p.Messages[i].OfAssistant != nil {
			markLast(p.Messages[i-1])
			break
		}
	}
}

// markLast marks a message's last block.
func markLast(m anthropic.MessageParam) {
	var blocks []anthropic.ContentBlockParamUnion
	switch {
	case m.OfUser != nil:
		blocks = m.OfUser.Content
	case m.OfAssistant != nil:
		blocks = m.OfAssistant.Content
	}
	if len(blocks) == 0 {
		return
	}
	if cc := blocks[len(blocks)-1].GetCacheControl(); cc != nil {
		*cc = anthropic.NewCacheControlEphemeralParam()
	}
}
