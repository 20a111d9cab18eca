-- A recording's transcript as its pieces are transcribed (one DBOS step each): the text waits here, not in
-- the DBOS ledger, until the whole recording is cut into passages and staged like any document's chunks.
-- A piece's step replaces its own rows, so a piece transcribed again after a crash writes them once.
CREATE TABLE transcript_segments (
    workflow_id text NOT NULL,
    document_id uuid NOT NULL,
    piece integer NOT NULL,
    seq integer NOT NULL,
    start_s real NOT NULL,
    end_s real NOT NULL,
    text text NOT NULL,
    PRIMARY KEY (workflow_id, document_id, piece, seq)
);
