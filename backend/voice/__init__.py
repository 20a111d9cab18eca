"""Voice questions: speech to text on this machine with faster-whisper (optional: requirements-voice.txt)."""
