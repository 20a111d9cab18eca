"""The source viewer: a document's extracted text by page, slide, section or sheet, PDF page images and
the rectangles of a cited passage on them."""
