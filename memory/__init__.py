"""Binding memory. Here, the contract both backends share: records and kinds, write guards (texts
scrubbed by `worldforge_textkit.scrub`), the consolidation rule and audit; `local/` (SQLite, the default), `cosmos/` and `foundry/` hold the backends."""
