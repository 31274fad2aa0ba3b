"""Routing suite fixtures: the network guard and the loopback OpenAI-compatible servers."""

from tests.netguard import netguard  # noqa: F401 - autouse fixture, active for this suite
from tests.servers.fixtures import (  # noqa: F401
    fake_openai,
    fake_openai_factory,
    fresh_llama_server,
    llama_server,
)
