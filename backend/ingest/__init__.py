"""Ingestion: validation, extraction, chunking and the durable DBOS ingestion workflow."""
