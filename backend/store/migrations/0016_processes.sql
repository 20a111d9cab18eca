-- Every Quire process (server or worker) sharing this database: who it is, that it is alive (last_seen,
-- refreshed by its heartbeat) and what it is doing. A live process that finds another silent for longer
-- than the takeover time claims it here (taken_over_by, set by one atomic UPDATE, so exactly one live
-- process recovers the silent one's workflows).
CREATE TABLE quire_processes (
    executor_id text PRIMARY KEY,
    instance_id uuid NOT NULL,
    mode text NOT NULL CHECK (mode IN ('server', 'worker')),
    hostname text NOT NULL,
    pid integer NOT NULL,
    address text,
    started_at timestamptz NOT NULL DEFAULT now(),
    last_seen timestamptz NOT NULL DEFAULT now(),
    activity jsonb NOT NULL DEFAULT '{}',
    stopped_at timestamptz,
    taken_over_by text,
    taken_over_at timestamptz,
    recovered_workflows integer NOT NULL DEFAULT 0
);
