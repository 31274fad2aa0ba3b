"""Reading what people write: text hygiene, fencing untrusted text, the pitch, and what the CEO means by a reason, reply or own answer."""
