"""Test support: the fake Ollama server, the Quire server process wrapper and test-data generators."""
