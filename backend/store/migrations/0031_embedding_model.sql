-- The vault's embedding model, which every process reads (one row), and a switch to another in progress:
-- the target's vectors are staged in `switch_vectors` while searches keep using the active model's vectors
-- in `blocks`, and copied over in one transaction once they cover every live block.
CREATE TABLE embedding_model (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    active text NOT NULL,
    -- the model the settings named when a process last started: a changed setting starts a switch
    configured text NOT NULL,
    target text,
    -- bumped by every switch started, so a cancelled or replaced switch's workflow stops writing
    switch_id bigint NOT NULL DEFAULT 0,
    switch_started_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE switch_vectors (
    block_id uuid PRIMARY KEY REFERENCES blocks (id) ON DELETE CASCADE,
    model text NOT NULL,
    embedding vector NOT NULL
);
