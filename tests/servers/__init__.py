"""Loopback servers the tests start on 127.0.0.1 (port 0): real HTTP, no mocks of the transport."""
