-- Audio overviews: a two-host script written by the model (every line with the passages it cites) and its
-- speech, made on this machine line by line. A line's audio is kept in audio_overview_clips as soon as it
-- is made (a crash costs at most the line in progress); when every line is done they are joined into one
-- Ogg/Opus file stored with the overview, each line's start and end written into `lines`, the clips dropped.
ALTER TABLE study_jobs DROP CONSTRAINT study_jobs_kind_check;
ALTER TABLE study_jobs ADD CONSTRAINT study_jobs_kind_check
    CHECK (kind IN ('quiz', 'deck', 'workshop', 'mindmap', 'lesson', 'recap', 'weak_spots', 'guide', 'optimize',
                    'audio_overview'));

CREATE TABLE audio_overviews (
    id uuid PRIMARY KEY,
    job_id text NOT NULL,
    title text NOT NULL,
    scope jsonb NOT NULL,
    language text NOT NULL CHECK (language IN ('en', 'de')),
    voices jsonb NOT NULL,            -- {"A": label, "B": label}
    lines jsonb NOT NULL,             -- [{speaker, text, sources, start_s?, end_s?}]
    state text NOT NULL DEFAULT 'synthesizing' CHECK (state IN ('synthesizing', 'ready', 'failed')),
    error_code text,
    error_message text,
    audio bytea,
    audio_mime text,
    duration_s double precision,
    syntheses integer NOT NULL DEFAULT 0,  -- lines spoken, counted as kept: a line spoken twice shows here
    created_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);

CREATE TABLE audio_overview_clips (
    overview_id uuid NOT NULL REFERENCES audio_overviews (id) ON DELETE CASCADE,
    n integer NOT NULL,
    pcm bytea NOT NULL,               -- 16-bit mono samples at `rate`
    rate integer NOT NULL,
    PRIMARY KEY (overview_id, n)
);
