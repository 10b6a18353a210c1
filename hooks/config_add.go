package hooks

// Add appends groups to event e's list, after those already there; an unknown
// event adds nothing. The settings loader builds a Config with it, file by file
// in order of precedence.
func (c *Config) Add(e Event, gs ...Group) {
	c.add(e, gs)
}
