package runtime

// MemoryLimit returns the run's memory ceiling in bytes (0: none), so a
// tool can keep what it reads below it. A call outside a run has the
// default ceiling.
func (c *Call) MemoryLimit() int64 {
	if c == nil || c.r == nil {
		return DefaultMemoryLimit
	}
	return c.r.env.memLimit
}
