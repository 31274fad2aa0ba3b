"""The Foundry Agent Service memory tier: a mirror of the local store over HTTPS, origin labelled."""
