-- Progress: badges earned (each once, with the time of the event that earned it). Sessions, streaks
-- and the daily series are derived from `activity_events` on read, so they follow the idle-gap and
-- time-zone settings instead of freezing whatever was configured when the event was written.
CREATE TABLE badge_awards (
    code text PRIMARY KEY,
    earned_at timestamptz NOT NULL,
    value double precision NOT NULL,
    awarded_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX activity_events_kind ON activity_events (kind, occurred_at);
