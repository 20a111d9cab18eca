"""The chat agent: a two-phase NDJSON stream (thinking, then an agent loop over Ollama tool calls) with
citations, sessions and memory kept in Postgres."""
