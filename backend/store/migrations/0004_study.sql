-- Study artifacts: quizzes with graded attempts, flashcard decks with FSRS state and a review log,
-- workshops with lessons written on first open, mind maps with saved layouts, and the background
-- generation jobs that create them. Generated items keep their grounding as a snapshot
-- (`sources`: [{block_id, document_id, filename, page}]) so it survives re-ingestion of a document.

CREATE TABLE study_jobs (
    id text PRIMARY KEY,  -- also the DBOS workflow id
    kind text NOT NULL CHECK (kind IN ('quiz', 'deck', 'workshop', 'mindmap', 'lesson', 'recap')),
    request_key text NOT NULL,  -- hash of kind + params + client token: identical requests share a key
    attempt integer NOT NULL,
    params jsonb NOT NULL,
    state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
    result_id uuid,
    error_code text,
    error_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    started_at timestamptz,
    finished_at timestamptz,
    UNIQUE (request_key, attempt)
);

CREATE TABLE workshops (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    summary text NOT NULL,
    difficulty text NOT NULL,
    objectives jsonb NOT NULL DEFAULT '[]',
    key_points jsonb NOT NULL DEFAULT '[]',
    scope jsonb NOT NULL,
    sources jsonb NOT NULL DEFAULT '[]',
    recap_quiz_id uuid,
    job_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workshop_lessons (
    workshop_id uuid NOT NULL REFERENCES workshops (id) ON DELETE CASCADE,
    n integer NOT NULL,
    title text NOT NULL,
    estimated_minutes integer NOT NULL,
    summary text NOT NULL,
    content text,
    sources jsonb NOT NULL DEFAULT '[]',
    version integer NOT NULL DEFAULT 0,  -- bumped by "regenerate", so the new writing gets its own job
    written_at timestamptz,
    completed_at timestamptz,
    PRIMARY KEY (workshop_id, n)
);

CREATE TABLE quizzes (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    difficulty text NOT NULL,
    types text[] NOT NULL,
    requested_count integer NOT NULL,
    scope jsonb NOT NULL,
    workshop_id uuid REFERENCES workshops (id) ON DELETE CASCADE,  -- set for a workshop's recap quiz
    job_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quizzes_created ON quizzes (created_at);
ALTER TABLE workshops ADD FOREIGN KEY (recap_quiz_id) REFERENCES quizzes (id) ON DELETE SET NULL;

CREATE TABLE quiz_questions (
    id uuid PRIMARY KEY,
    quiz_id uuid NOT NULL REFERENCES quizzes (id) ON DELETE CASCADE,
    position integer NOT NULL,
    type text NOT NULL CHECK (type IN ('mcq', 'true_false')),
    question text NOT NULL,
    options jsonb NOT NULL,
    correct_index integer NOT NULL,
    explanation text NOT NULL,
    sources jsonb NOT NULL DEFAULT '[]',
    UNIQUE (quiz_id, position)
);

CREATE TABLE quiz_attempts (
    id uuid PRIMARY KEY,
    quiz_id uuid NOT NULL REFERENCES quizzes (id) ON DELETE CASCADE,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
CREATE INDEX quiz_attempts_quiz ON quiz_attempts (quiz_id, started_at);

-- One row per answered question; the primary key makes an answer immutable once given.
CREATE TABLE quiz_answers (
    attempt_id uuid NOT NULL REFERENCES quiz_attempts (id) ON DELETE CASCADE,
    question_id uuid NOT NULL REFERENCES quiz_questions (id) ON DELETE CASCADE,
    choice_index integer NOT NULL,
    correct boolean NOT NULL,
    answered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (attempt_id, question_id)
);

CREATE TABLE decks (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    scope jsonb NOT NULL,
    job_id text,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- FSRS state per card (fsrs.Card fields); a card never reviewed has reps = 0.
CREATE TABLE cards (
    id uuid PRIMARY KEY,
    deck_id uuid NOT NULL REFERENCES decks (id) ON DELETE CASCADE,
    position integer NOT NULL,
    front text NOT NULL,
    back text NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    origin text NOT NULL CHECK (origin IN ('generated', 'manual')),
    sources jsonb NOT NULL DEFAULT '[]',
    fsrs_state smallint NOT NULL DEFAULT 1,
    fsrs_step integer DEFAULT 0,
    stability double precision,
    difficulty double precision,
    due timestamptz NOT NULL DEFAULT now(),
    last_review timestamptz,
    reps integer NOT NULL DEFAULT 0,
    lapses integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cards_deck_due ON cards (deck_id, due);

CREATE TABLE card_reviews (
    id bigserial PRIMARY KEY,
    card_id uuid NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
    rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 4),
    reviewed_at timestamptz NOT NULL,
    state_before smallint NOT NULL,
    due_before timestamptz NOT NULL,
    due_after timestamptz NOT NULL,
    stability_after double precision,
    difficulty_after double precision
);
CREATE INDEX card_reviews_card ON card_reviews (card_id, reviewed_at);

CREATE TABLE mindmaps (
    id uuid PRIMARY KEY,
    title text NOT NULL,
    depth integer NOT NULL CHECK (depth BETWEEN 2 AND 3),
    tree jsonb NOT NULL,
    layout text NOT NULL DEFAULT 'LR' CHECK (layout IN ('LR', 'TB')),
    positions jsonb NOT NULL DEFAULT '{}',
    scope jsonb NOT NULL,
    job_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mindmap_exports (
    id bigserial PRIMARY KEY,
    mindmap_id uuid NOT NULL REFERENCES mindmaps (id) ON DELETE CASCADE,
    format text NOT NULL CHECK (format IN ('png', 'pdf', 'markdown')),
    created_at timestamptz NOT NULL DEFAULT now()
);
