"""Progress: study activity events, sessions derived from them, streaks, badges and vault statistics."""
