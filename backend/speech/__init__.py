"""Speech to text on this machine (faster-whisper, optional: requirements-voice.txt), shared by voice
questions (backend/voice/) and recordings read as documents (backend/ingest/formats/recording.py).
Everything that decodes audio or runs the model does so in the transcription sandbox's child processes
(pool.py): a hostile file cannot hurt the server, and the work is bounded by CPU time in proportion to
the audio's length."""
