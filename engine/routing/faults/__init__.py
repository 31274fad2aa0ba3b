"""The fault catalogue the router is tested against, and the loopback server that plays it.

Sixteen provider faults after the public failoverbench catalogue (MIT; facts only, our own code):
`catalogue` holds them as data, `server` is a stdlib OpenAI-compatible server that misbehaves on
cue, and `scorecard` runs the router's own code through them (`worldforge routing test --faults`).
"""
