-- Study jobs: what a generation asked the model for and what it kept ({asked, kept, repaired: {repair:
-- count}, dropped: {reason: count}, reasked}), so the user sees how well the model filled the schema.
-- Null for jobs that ended before generating, and for jobs from before this migration.
ALTER TABLE study_jobs ADD COLUMN report jsonb;
