"""Text for terminals, shared by the CLI and the app (no Textual): untrusted text made safe, escape
sequences stripped and secrets redacted, and numbers formatted for the panes."""
