-- Study activity: every chat question, quiz answer, card review and lesson read is one event.
-- Study sessions, streaks and badges are derived from these rows.
CREATE TABLE activity_events (
    id bigserial PRIMARY KEY,
    kind text NOT NULL,
    ref text,
    occurred_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_events_time ON activity_events (occurred_at);
