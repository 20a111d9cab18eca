-- Fencing a hung process (backend/cluster/takeover.py). A process that is silent but still holds its
-- database session cannot be proven dead by its lock; after a longer silence a live process fences it:
-- marks it here (fenced_at: from now on every new connection of that instance is refused), ends its
-- sessions (pg_terminate_backend: sessions_ended of them were still open) and then takes its work over.
-- beating_since: since when the process has beaten without a gap as long as the takeover time; only a
-- process that has beaten continuously for the whole fence bound may fence another (after a pause of
-- the whole machine or of the database every process looks silent to every other).
-- taken_over_instance: the instance of the process that claimed this one, so a claim left unfinished
-- by a claimer that was itself fenced is taken up again.
ALTER TABLE quire_processes
    ADD COLUMN beating_since timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN fenced_at timestamptz,
    ADD COLUMN sessions_ended integer NOT NULL DEFAULT 0,
    ADD COLUMN taken_over_instance uuid,
    ADD COLUMN recovered_at timestamptz;

-- Every takeover, kept for a week for the operator (the victim's own row is reset when it starts again).
CREATE TABLE quire_takeovers (
    id bigserial PRIMARY KEY,
    at timestamptz NOT NULL DEFAULT now(),
    executor_id text NOT NULL,
    instance_id uuid NOT NULL,
    mode text NOT NULL,
    taken_over_by text NOT NULL,
    silent_s double precision NOT NULL,
    sessions_ended integer NOT NULL,
    workflows integer NOT NULL
);
CREATE INDEX quire_takeovers_at ON quire_takeovers (at);
