-- The study loop (issue #29): mistakes become cards, cloze and typed cards, cards from any passage,
-- exam plans, personal FSRS parameters, items that notice their source changed, notes, study guides.

-- Cards: a kind (front/back, cloze deletion, typed answer), the cloze note a card belongs to (one card
-- per deletion number, as in Anki), the quiz question a mistake card came from, and retiring.
ALTER TABLE cards DROP CONSTRAINT cards_origin_check;
ALTER TABLE cards ADD CONSTRAINT cards_origin_check
    CHECK (origin IN ('generated', 'manual', 'mistake', 'passage'));
ALTER TABLE cards ADD COLUMN kind text NOT NULL DEFAULT 'basic' CHECK (kind IN ('basic', 'cloze', 'typed'));
ALTER TABLE cards ADD COLUMN note_id uuid;
ALTER TABLE cards ADD COLUMN cloze_n integer CHECK (cloze_n BETWEEN 1 AND 50);
ALTER TABLE cards ADD COLUMN question_id uuid REFERENCES quiz_questions (id) ON DELETE SET NULL;
ALTER TABLE cards ADD COLUMN retired_at timestamptz;
CREATE UNIQUE INDEX cards_cloze_note ON cards (note_id, cloze_n) WHERE note_id IS NOT NULL;
-- One mistake card per question and deck: answering the same question wrong again makes it due again.
CREATE UNIQUE INDEX cards_mistake_question ON cards (deck_id, question_id) WHERE question_id IS NOT NULL;

-- A deck Quire keeps for a purpose: the "Mistakes" deck of a scope (one per scope).
ALTER TABLE decks ADD COLUMN purpose text CHECK (purpose IN ('mistakes'));
CREATE UNIQUE INDEX decks_mistakes_scope ON decks (scope) WHERE purpose = 'mistakes';

ALTER TABLE quiz_answers ADD COLUMN unsure boolean NOT NULL DEFAULT false;
ALTER TABLE quiz_questions ADD COLUMN retired_at timestamptz;
ALTER TABLE quizzes ADD COLUMN purpose text CHECK (purpose IN ('weak_spots'));

ALTER TABLE study_jobs DROP CONSTRAINT study_jobs_kind_check;
ALTER TABLE study_jobs ADD CONSTRAINT study_jobs_kind_check
    CHECK (kind IN ('quiz', 'deck', 'workshop', 'mindmap', 'lesson', 'recap', 'weak_spots', 'guide', 'optimize'));

-- The user's choice about an item whose cited passage changed in a newer version of its document:
-- kept as it is, updated, or retired. Which items are flagged is worked out from the live blocks, so a
-- restored version un-flags by itself; a decision is what makes a flag go away otherwise.
CREATE TABLE source_decisions (
    item_kind text NOT NULL CHECK (item_kind IN ('card', 'question')),
    item_id uuid NOT NULL,
    block_id uuid NOT NULL,  -- the cited block that changed
    decision text NOT NULL CHECK (decision IN ('kept', 'updated', 'retired')),
    new_block_id uuid,
    decided_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_kind, item_id, block_id)
);

-- An exam to study toward: its date, what it covers, and the retrievability to reach by then.
CREATE TABLE exam_plans (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    exam_date date NOT NULL,
    scope jsonb NOT NULL,  -- {document_ids, categories, deck_ids}
    target_retention double precision NOT NULL DEFAULT 0.9 CHECK (target_retention > 0.5 AND target_retention < 1),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- FSRS parameters fitted to the user's own review log; the newest row is the one in use.
CREATE TABLE fsrs_parameters (
    id uuid PRIMARY KEY,
    job_id text,
    parameters double precision[] NOT NULL,
    reviews integer NOT NULL,  -- reviews in the log it was fitted on
    cards integer NOT NULL,
    log_loss_before double precision NOT NULL,  -- of the default parameters on that log
    log_loss_after double precision NOT NULL,
    rmse_before double precision NOT NULL,
    rmse_after double precision NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Study guides: a briefing, FAQ, glossary or timeline; every entry keeps the passages it cites.
CREATE TABLE study_guides (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    guide_type text NOT NULL CHECK (guide_type IN ('briefing', 'faq', 'glossary', 'timeline')),
    entries jsonb NOT NULL,  -- [{heading, text, sources}]
    scope jsonb NOT NULL,
    job_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- A note is a source like a document (a Markdown original, versions, trash), written in the app.
ALTER TABLE documents ADD COLUMN source_kind text NOT NULL DEFAULT 'document'
    CHECK (source_kind IN ('document', 'note'));
