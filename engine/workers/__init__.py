"""Workers at work: the brief, the routed call and its tools, and the standup after each fork."""
