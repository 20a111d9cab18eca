-- Chat answers: whether an answer stands on the user's documents (backend/agent/grounding.py: cited |
-- uncited | not_covered | passages; null for small talk and for answers written before this migration),
-- and the model that wrote it with what it could do ({name, context_length, tools, thinking, vision,
-- context_tokens, reasoning}), so a reloaded transcript shows the same notices as the stream did.
ALTER TABLE chat_messages ADD COLUMN grounding text
    CHECK (grounding IN ('cited', 'uncited', 'not_covered', 'passages'));
ALTER TABLE chat_messages ADD COLUMN model jsonb;
