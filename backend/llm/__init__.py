"""The one place that talks to a model server (Ollama) or loads an in-process embedding model."""
