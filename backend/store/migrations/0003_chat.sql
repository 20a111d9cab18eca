-- Chat: sessions and their messages. A turn is one user question and everything the agent did to
-- answer it (assistant tool-call messages, tool results, the final answer), grouped by `turn` and
-- ordered by `seq`, so memory trimming and rewinds always act on whole turns.
CREATE TABLE chat_sessions (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    -- a title the user set is never replaced by one derived from the first question
    title_is_custom boolean NOT NULL DEFAULT false,
    -- the scope of the latest question, so the UI can restore it when the session is reopened
    scope jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_sessions_updated ON chat_sessions (updated_at DESC);

CREATE TABLE chat_messages (
    id uuid PRIMARY KEY,
    session_id uuid NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
    turn integer NOT NULL,
    seq integer NOT NULL,
    role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    -- what the user typed / the assistant wrote / the tool returned
    content text NOT NULL DEFAULT '',
    -- user messages: the text the model was sent (scope note, attached files, question) when it differs
    model_content text,
    -- assistant messages: [{id, name, args}]
    tool_calls jsonb,
    -- tool messages: which call this answers, and a one-line summary for the UI
    tool_call_id text,
    tool_name text,
    tool_summary text,
    -- final assistant message: [{n, block_id, document_id, filename, page, section, snippet, score, text}]
    citations jsonb NOT NULL DEFAULT '[]',
    thinking text,
    -- user messages: [{name, mime_type, kind, size_bytes, chars, truncated}]
    attachments jsonb NOT NULL DEFAULT '[]',
    scope jsonb,
    status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'partial', 'error')),
    error jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (session_id, turn, seq)
);

-- Images attached to a user message, re-sent with that message while its turn stays in memory.
CREATE TABLE chat_images (
    message_id uuid NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
    position integer NOT NULL,
    mime_type text NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (message_id, position)
);
