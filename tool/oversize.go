package tool

import "fmt"

// MaxBlockInputBytes is the largest raw input any tool takes (Write's, Edit's and
// every custom tool's): an input over it is refused whatever the tool's name.
const MaxBlockInputBytes = 16 << 20

// InputLimit is the largest raw input a call of name may have: the tool's own
// bound, or MaxBlockInputBytes for MCP tools and for names r does not know
// (another process's custom tool, or no tool at all).
func (r *Registry) InputLimit(name string) int {
	if d, ok := r.Lookup(name); ok {
		return d.MaxInputBytes()
	}
	return MaxBlockInputBytes
}

// DropOversizeInput returns b without its input when the input is over
// r.InputLimit(b.Name): Input is nil and InputBytes is its size. Whoever hands a
// block to a turn (the starter reading a message, the model call streaming one,
// the Go client) drops an oversize input before it is sent, so that it is never
// stored (a Temporal payload, the payload store of the state directory) or
// decoded again; the turn answers the call with the InputValidationError it would
// have given the whole input (Definition.ValidateBlock).
func (r *Registry) DropOversizeInput(b Block) Block {
	if len(b.Input) > r.InputLimit(b.Name) {
		b.InputBytes, b.Input = len(b.Input), nil
	}
	return b
}

// ValidateBlock is ValidateInput for a block whose input may have been dropped
// for its size (DropOversizeInput): such a block fails as its whole input would.
func (d *Definition) ValidateBlock(b Block) error {
	if b.InputBytes > 0 { // set only when the input was dropped (it travels as null)
		return d.tooLarge(b.InputBytes)
	}
	return d.ValidateInput(b.Input)
}

// tooLarge is the error for an input of n bytes over the tool's bound.
func (d *Definition) tooLarge(n int) error {
	return fmt.Errorf("%s: the input is %d bytes; %s takes at most %d%s", InputValidationError, n, d.Name(), d.spec.MaxInputBytes, d.spec.TooBigHint)
}
