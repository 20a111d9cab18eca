-- The text a lesson job has written so far, so the lesson can be read while it is being written.
-- Progress only: cleared when the job ends (the finished lesson is stored with the workshop).
ALTER TABLE study_jobs ADD COLUMN draft text;
