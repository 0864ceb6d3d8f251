package sitegate

// The owner's view of the gate: the Privacy & Safety lists.

// SetAsk turns asking about sites the agent chose on or off.
func (g *Gate) SetAsk(on bool) { g.ask = on }
