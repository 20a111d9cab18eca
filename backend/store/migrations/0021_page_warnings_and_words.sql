-- Pages (or slides) that could not be read reliably, each named with its place, so the upload card, the
-- library and the viewer can say so and link to the page image: [{"page": 3, "message": "..."}].
ALTER TABLE documents ADD COLUMN page_warnings jsonb NOT NULL DEFAULT '[]';
ALTER TABLE document_versions ADD COLUMN page_warnings jsonb NOT NULL DEFAULT '[]';
ALTER TABLE ingest_items ADD COLUMN page_warnings jsonb NOT NULL DEFAULT '[]';

-- The words OCR read on a page and their boxes in PDF points, on the page as it is shown (its /Rotate
-- applied): [[x0, y0, x1, y1, "word", line], ...]. The viewer boxes a passage on a scanned page with them,
-- as it does with a text layer's words. Keyed like blocks, by the version's bytes: derived from the
-- file alone, so a replayed extract step writes the same row.
CREATE TABLE page_words (
    document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    doc_sha256 text NOT NULL,
    page integer NOT NULL,
    words jsonb NOT NULL,
    PRIMARY KEY (document_id, doc_sha256, page)
);
