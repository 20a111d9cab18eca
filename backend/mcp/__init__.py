"""Quire as a Model Context Protocol server: the vault's read tools (and, when enabled, writes) for other
AI agents, over stdio (`python -m backend.mcp`) and streamable HTTP mounted in the app at `/mcp`."""
