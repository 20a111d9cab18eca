-- Chat: how full the conversation's memory was when an answer was written (the `memory` line of the
-- stream: {used_chars, budget_chars, turns_kept, turns_dropped}), so the UI can show it after a reload.
-- Null for answers given without the model and for answers written before this migration.
ALTER TABLE chat_messages ADD COLUMN memory jsonb;
