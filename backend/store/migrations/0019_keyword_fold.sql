-- Folding (backend/store/keyword_impacts.py `fold`): every process, whatever its search mode, adds the
-- change rows of migration 0018 into the build's counts (`blocks`, `total_length`, each list's `df`) and
-- deletes them, so the change tables stay small even when no process ever rebuilds (the in-memory mode).
-- What the rebuild check reads of the build is kept apart, since folding moves `blocks`: the net live
-- blocks folded into it (live blocks when built = blocks − folded_blocks) and the change rows folded (the
-- blocks written, trashed, restored or deleted since = folded_changes + the rows left). Both are 0 for a
-- fresh build, so a build's INSERT needs no change.
ALTER TABLE keyword_impact_build
    ADD COLUMN folded_blocks integer NOT NULL DEFAULT 0,
    ADD COLUMN folded_changes bigint NOT NULL DEFAULT 0;
