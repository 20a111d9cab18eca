/**
 * Generated from the backend's OpenAPI schema by `npm run gen:api`. Do not edit by hand.
 */

export interface paths {
    "/api/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Categories */
        get: operations["list_categories_api_categories_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat
         * @description Ask a question; the answer streams as NDJSON lines `{type, data}`: start, model, progress, thinking,
         *     tool, metadata, text, grounding, memory, error, done.
         */
        post: operations["chat_api_chat_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Sessions */
        get: operations["list_sessions_api_chat_sessions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Session
         * @description The whole transcript: questions, tool calls and results, answers with citations and thinking.
         */
        get: operations["get_session_api_chat_sessions__session_id__get"];
        put?: never;
        post?: never;
        /** Delete Session */
        delete: operations["delete_session_api_chat_sessions__session_id__delete"];
        options?: never;
        head?: never;
        /** Rename Session */
        patch: operations["rename_session_api_chat_sessions__session_id__patch"];
        trace?: never;
    };
    "/api/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Documents
         * @description Documents not in the trash (`?status=trashed` lists the trash).
         */
        get: operations["list_documents_api_documents_get"];
        put?: never;
        /**
         * Upload Documents
         * @description Upload files (multipart `files`, optional `category`, `on_conflict` as a form field or query parameter).
         *
         *     A name already used in the category by a different file: `ask` (default) answers 409 `name_conflict`
         *     with the existing documents and stores nothing; `replace` adds a new version; `keep_both` stores the
         *     file as `Name (2).ext`.
         */
        post: operations["upload_documents_api_documents_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import Document Url
         * @description Fetch a public web page (or file) and ingest it like an upload.
         */
        post: operations["import_document_url_api_documents_url_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Document */
        get: operations["get_document_api_documents__document_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Document
         * @description Move to the trash (200 with the document); `?permanent=true` deletes a trashed document for good (204).
         */
        delete: operations["delete_document_api_documents__document_id__delete"];
        options?: never;
        head?: never;
        /**
         * Update Document
         * @description Change a document's category (metadata only: nothing is re-extracted or re-embedded).
         */
        patch: operations["update_document_api_documents__document_id__patch"];
        trace?: never;
    };
    "/api/documents/{document_id}/blocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Document Blocks */
        get: operations["document_blocks_api_documents__document_id__blocks_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Document File
         * @description The current version's original (any Quire process on the database serves it).
         */
        get: operations["document_file_api_documents__document_id__file_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/outline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Document Outline */
        get: operations["document_outline_api_documents__document_id__outline_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/pages/{page}.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Document Page Image
         * @description A PDF page rendered as PNG (at most about 4 megapixels), cached by the browser per file version.
         */
        get: operations["document_page_image_api_documents__document_id__pages__page__png_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/pages/{page}/highlights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Document Page Highlights
         * @description Boxes (in PDF points, origin top left) of the passage's words on the page, or of a search's words.
         */
        get: operations["document_page_highlights_api_documents__document_id__pages__page__highlights_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore Document
         * @description Out of the trash and searchable again, without re-ingesting (renamed `Name (n).ext` if taken).
         */
        post: operations["restore_document_api_documents__document_id__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry Document
         * @description Ingest a failed document again from its stored original.
         */
        post: operations["retry_document_api_documents__document_id__retry_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Versions
         * @description Newest first; `current` marks the one search and chat use.
         */
        get: operations["list_versions_api_documents__document_id__versions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete Version
         * @description Delete a version other than the current one, with its blocks and (if nothing else needs it) its file.
         */
        delete: operations["delete_version_api_documents__document_id__versions__version__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/versions/{version}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Version File */
        get: operations["version_file_api_documents__document_id__versions__version__file_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/documents/{document_id}/versions/{version}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore Version
         * @description Make this version current; the one it replaces stays in the list.
         */
        post: operations["restore_version_api_documents__document_id__versions__version__restore_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health */
        get: operations["health_api_health_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ready
         * @description For a load balancer: 200 while this process can serve requests, 503 while it cannot. What is missing
         *     for the whole installation (a model, a silent process) is `/api/health`'s `status`, not a reason to
         *     take this process out of rotation: every process would share it.
         */
        get: operations["ready_api_health_ready_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Runs */
        get: operations["list_runs_api_ingest_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ingest/{workflow_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Run
         * @description DBOS status, the steps taken so far, each document's state and the fine-grained progress.
         */
        get: operations["get_run_api_ingest__workflow_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ingest/{workflow_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel Run
         * @description Stop an ingestion at its next step boundary; documents it made ready stay, no other file is added.
         */
        post: operations["cancel_run_api_ingest__workflow_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ingest/{workflow_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Run Events
         * @description NDJSON: a `progress` line (a RunSnapshot) whenever it changes, then an `end` line with the status.
         */
        get: operations["run_events_api_ingest__workflow_id__events_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create Note
         * @description Store a new note and start its ingestion (`workflow_id`, as for an upload).
         */
        post: operations["create_note_api_notes_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notes/from-answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Note From Answer
         * @description Save a chat answer as a note: the question, the answer with its [n] markers and its sources.
         */
        post: operations["note_from_answer_api_notes_from_answer_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notes/{document_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Note
         * @description The note's current text (409 `not_a_note` for an uploaded document).
         */
        get: operations["get_note_api_notes__document_id__get"];
        /**
         * Edit Note
         * @description Save the note's new text as its next version.
         */
        put: operations["edit_note_api_notes__document_id__put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/badges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress Badges */
        get: operations["progress_badges_api_progress_badges_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/breakdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress Breakdown
         * @description Study time and events per activity over the last `days` days (all time if omitted).
         */
        get: operations["progress_breakdown_api_progress_breakdown_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress Daily
         * @description `days` entries (zero-filled) ending at `end` (default today).
         */
        get: operations["progress_daily_api_progress_daily_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/day/{day}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress Day
         * @description One day of the heatmap: its sessions and events.
         */
        get: operations["progress_day_api_progress_day__day__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress Sessions
         * @description Sessions newest first; pass the last one's `start` as `before` for the next page.
         */
        get: operations["progress_sessions_api_progress_sessions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/progress/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress Summary */
        get: operations["progress_summary_api_progress_summary_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/refusals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Refusals */
        get: operations["list_refusals_api_refusals_get"];
        put?: never;
        post?: never;
        /** Dismiss All Refusals */
        delete: operations["dismiss_all_refusals_api_refusals_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/refusals/{refusal_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Dismiss Refusal */
        delete: operations["dismiss_refusal_api_refusals__refusal_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search */
        get: operations["search_api_search_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Source Changes
         * @description Cards and quiz questions whose cited passage changed in a newer version of its document, each with
         *     the old and the new passage (none: removed), until the user keeps, updates or retires it.
         */
        get: operations["source_changes_api_study_changes_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/changes/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draft Change
         * @description The model's rewrite of a flagged item for its new passage; nothing is saved.
         */
        post: operations["draft_change_api_study_changes_draft_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/changes/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resolve Change
         * @description Keep the item (it cites the new passage), update it (with the edit sent), or retire it.
         */
        post: operations["resolve_change_api_study_changes_resolve_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Decks */
        get: operations["list_decks_api_study_decks_get"];
        put?: never;
        /**
         * Generate Deck
         * @description Queue a deck generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`.
         */
        post: operations["generate_deck_api_study_decks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/manual": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create Deck
         * @description An empty deck, to fill by hand or with cards made from passages.
         */
        post: operations["create_deck_api_study_decks_manual_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/{deck_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Deck */
        get: operations["get_deck_api_study_decks__deck_id__get"];
        put?: never;
        post?: never;
        /** Delete Deck */
        delete: operations["delete_deck_api_study_decks__deck_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/{deck_id}/cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add Card
         * @description Add a card: `basic` (front/back), `typed` (the answer is typed in) or `cloze` (`{{c1::...}}` in the
         *     front; one card per deletion number, the first returned). `block_ids`: the passages it is made from.
         */
        post: operations["add_card_api_study_decks__deck_id__cards_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/{deck_id}/cards/{card_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete Card */
        delete: operations["delete_card_api_study_decks__deck_id__cards__card_id__delete"];
        options?: never;
        head?: never;
        /**
         * Edit Card
         * @description Change front, back and/or tags; the card keeps its review schedule (a cloze card: its note).
         */
        patch: operations["edit_card_api_study_decks__deck_id__cards__card_id__patch"];
        trace?: never;
    };
    "/api/study/decks/{deck_id}/cards/{card_id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review Card
         * @description Rate a card (again|hard|good|easy): FSRS reschedules it, the review is logged.
         */
        post: operations["review_card_api_study_decks__deck_id__cards__card_id__review_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/{deck_id}/due": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Due Cards
         * @description Cards due now, most overdue first, each with the interval every rating would give.
         */
        get: operations["due_cards_api_study_decks__deck_id__due_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/decks/{deck_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Deck
         * @description `csv`: for Anki's File → Import (columns front, back, tags; Anki header lines start with #).
         *     `apkg`: an Anki package (one note per card, tags, the source on the back); importing it again
         *     updates the same deck and notes instead of adding copies.
         */
        get: operations["export_deck_api_study_decks__deck_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/drafts/card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draft Card
         * @description The model's draft of one card (basic, typed or cloze) from a passage, to edit and then save; nothing
         *     is stored. 503 `model_unavailable` without a model, 502 when its answer was unusable.
         */
        post: operations["draft_card_api_study_drafts_card_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/guides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Guides */
        get: operations["list_guides_api_study_guides_get"];
        put?: never;
        /**
         * Generate Guide
         * @description Queue a briefing, FAQ, glossary or timeline over the scope; poll the job, then read `result_url`.
         */
        post: operations["generate_guide_api_study_guides_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/guides/{guide_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Guide
         * @description The guide; every entry with the passages it cites.
         */
        get: operations["get_guide_api_study_guides__guide_id__get"];
        put?: never;
        post?: never;
        /** Delete Guide */
        delete: operations["delete_guide_api_study_guides__guide_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/guides/{guide_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Guide
         * @description Markdown: every statement with its citation numbers, the sources listed at the end.
         */
        get: operations["export_guide_api_study_guides__guide_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Jobs
         * @description Recent jobs, newest first; `status` (repeatable) filters, default queued and running.
         */
        get: operations["list_jobs_api_study_jobs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Job */
        get: operations["get_job_api_study_jobs__job_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/mindmaps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Mindmaps */
        get: operations["list_mindmaps_api_study_mindmaps_get"];
        put?: never;
        /**
         * Generate Mindmap
         * @description Queue a mind map generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`.
         */
        post: operations["generate_mindmap_api_study_mindmaps_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/mindmaps/{mindmap_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Mindmap */
        get: operations["get_mindmap_api_study_mindmaps__mindmap_id__get"];
        put?: never;
        post?: never;
        /** Delete Mindmap */
        delete: operations["delete_mindmap_api_study_mindmaps__mindmap_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/mindmaps/{mindmap_id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record Export
         * @description Record an export the UI made (png|pdf|markdown); it counts as study activity.
         */
        post: operations["record_export_api_study_mindmaps__mindmap_id__exports_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/mindmaps/{mindmap_id}/layout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Save Layout
         * @description Save the layout (LR|TB) and node positions (`{node_id: {x, y}}`; unknown node ids → 422).
         */
        put: operations["save_layout_api_study_mindmaps__mindmap_id__layout_put"];
        post?: never;
        /**
         * Reset Layout
         * @description Back to the automatic left-to-right layout with no saved positions.
         */
        delete: operations["reset_layout_api_study_mindmaps__mindmap_id__layout_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/mindmaps/{mindmap_id}/markdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Mindmap Markdown */
        get: operations["mindmap_markdown_api_study_mindmaps__mindmap_id__markdown_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/overviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Overviews */
        get: operations["list_overviews_api_study_overviews_get"];
        put?: never;
        /**
         * Generate Overview
         * @description Queue an audio overview of the scope: the job writes the script; the overview is then spoken
         *     (`state` synthesizing → ready). 503 `voice_unavailable` when no voice is installed.
         */
        post: operations["generate_overview_api_study_overviews_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/overviews/{overview_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Overview */
        get: operations["get_overview_api_study_overviews__overview_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Overview
         * @description Delete it (one still being spoken stops after the line in progress).
         */
        delete: operations["delete_overview_api_study_overviews__overview_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/overviews/{overview_id}/audio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Overview Audio
         * @description The spoken overview (Ogg/Opus), with range requests; 409 `not_ready` until it is spoken.
         */
        get: operations["overview_audio_api_study_overviews__overview_id__audio_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Plans
         * @description Every plan, nearest exam first, each with today's plan and status.
         */
        get: operations["list_plans_api_study_plans_get"];
        put?: never;
        /**
         * Create Plan
         * @description Plan toward an exam: its date (today or later), scope (documents, categories, decks) and target.
         */
        post: operations["create_plan_api_study_plans_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/plans/{plan_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Plan */
        get: operations["get_plan_api_study_plans__plan_id__get"];
        put?: never;
        post?: never;
        /** Delete Plan */
        delete: operations["delete_plan_api_study_plans__plan_id__delete"];
        options?: never;
        head?: never;
        /** Update Plan */
        patch: operations["update_plan_api_study_plans__plan_id__patch"];
        trace?: never;
    };
    "/api/study/plans/{plan_id}/today": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Today Cards
         * @description Today's cards: the learnt ones due by the plan (most overdue first), then today's new ones. Rate
         *     each with `POST /api/study/decks/{deck_id}/cards/{card_id}/review`.
         */
        get: operations["today_cards_api_study_plans__plan_id__today_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Quizzes */
        get: operations["list_quizzes_api_study_quizzes_get"];
        put?: never;
        /**
         * Generate Quiz
         * @description Queue a quiz generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`.
         */
        post: operations["generate_quiz_api_study_quizzes_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes/{quiz_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Quiz
         * @description The quiz with its questions; answers and explanations come back as each answer is graded.
         */
        get: operations["get_quiz_api_study_quizzes__quiz_id__get"];
        put?: never;
        post?: never;
        /** Delete Quiz */
        delete: operations["delete_quiz_api_study_quizzes__quiz_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes/{quiz_id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Attempts
         * @description Every attempt, newest first, with its graded answers.
         */
        get: operations["list_attempts_api_study_quizzes__quiz_id__attempts_get"];
        put?: never;
        /**
         * Start Attempt
         * @description Resume the unfinished attempt (200) or start a new one (201).
         */
        post: operations["start_attempt_api_study_quizzes__quiz_id__attempts_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes/{quiz_id}/attempts/{attempt_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Attempt */
        get: operations["get_attempt_api_study_quizzes__quiz_id__attempts__attempt_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes/{quiz_id}/attempts/{attempt_id}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer
         * @description Grade one answer; 409 `already_answered` if that question was answered in this attempt.
         */
        post: operations["answer_api_study_quizzes__quiz_id__attempts__attempt_id__answers_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/quizzes/{quiz_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export Quiz
         * @description Markdown: `questions` only, with `answers`, or with answers and `explanations` (+ sources).
         */
        get: operations["export_quiz_api_study_quizzes__quiz_id__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/scheduler": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Scheduler
         * @description The FSRS parameters reviews use (default or fitted to your reviews), with the fit's before/after.
         */
        get: operations["scheduler_api_study_scheduler_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/scheduler/optimize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Optimize Scheduler
         * @description Fit the FSRS parameters to your review log (409 `not_enough_reviews`, 503 `optimizer_missing`).
         */
        post: operations["optimize_scheduler_api_study_scheduler_optimize_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/weak-spots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Practise Weak Spots
         * @description Queue a quiz on the passages behind recent mistakes and lapsed cards (422 `no_weak_spots` if none).
         */
        post: operations["practise_weak_spots_api_study_weak_spots_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/weak-spots/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count Weak Spots
         * @description How many passages a weak-spots quiz would practise (0: nothing to practise), within `scope`.
         */
        post: operations["count_weak_spots_api_study_weak_spots_count_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Workshops */
        get: operations["list_workshops_api_study_workshops_get"];
        put?: never;
        /**
         * Generate Workshop
         * @description Queue an outline generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`.
         */
        post: operations["generate_workshop_api_study_workshops_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Workshop */
        get: operations["get_workshop_api_study_workshops__workshop_id__get"];
        put?: never;
        post?: never;
        /** Delete Workshop */
        delete: operations["delete_workshop_api_study_workshops__workshop_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}/lessons/{n}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open Lesson
         * @description 200 + the lesson when written; 202 + the job writing it otherwise (see the module notes).
         */
        get: operations["open_lesson_api_study_workshops__workshop_id__lessons__n__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}/lessons/{n}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete Lesson
         * @description Mark the lesson read (`{"completed": false}` un-marks it); returns the workshop's progress.
         */
        post: operations["complete_lesson_api_study_workshops__workshop_id__lessons__n__complete_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}/lessons/{n}/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Regenerate Lesson */
        post: operations["regenerate_lesson_api_study_workshops__workshop_id__lessons__n__regenerate_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Workshop Progress */
        get: operations["workshop_progress_api_study_workshops__workshop_id__progress_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/study/workshops/{workshop_id}/recap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recap Quiz
         * @description The recap quiz's job (409 `lessons_incomplete` until every lesson is complete).
         */
        post: operations["recap_quiz_api_study_workshops__workshop_id__recap_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/transcribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Transcribe
         * @description Speech to text with the local Whisper model: 503 voice_unavailable when it is not installed, 413 over
         *     its size limit (`Settings.voice_max_mb`), 415 for what is not a recording, 422 for one longer than
         *     QUIRE_VOICE_MAX_SECONDS.
         */
        post: operations["transcribe_api_transcribe_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/trash": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Empty Trash
         * @description Delete every document in the trash for good, with the originals no other version needs.
         */
        delete: operations["empty_trash_api_trash_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/embedding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Embedding
         * @description The model searches use, its speed measured here, the models one can switch to, and the switch under way.
         */
        get: operations["get_embedding_api_vault_embedding_get"];
        /**
         * Switch Model
         * @description Re-embed every passage with `model` in the background (durable); searches keep the active model's
         *     vectors until the new ones cover every passage, then every process uses the new model. 503
         *     `model_unavailable` while Ollama, which lists its models, is not running.
         */
        put: operations["switch_model_api_vault_embedding_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/embedding/switch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel Switch
         * @description Stop the switch under way and drop its new vectors; searches go on with the active model.
         */
        delete: operations["cancel_switch_api_vault_embedding_switch_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vault/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stats
         * @description Documents, blocks and embedded share, index sizes, storage locations and sizes, models, and the
         *     outbound requests the app has made.
         */
        get: operations["stats_api_vault_stats_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AcceptedDocument */
        AcceptedDocument: {
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /**
             * Kind
             * @description What the file is read as, decided by its content
             * @enum {string}
             */
            kind: "pdf" | "docx" | "pptx" | "xlsx" | "csv" | "md" | "txt" | "html" | "image" | "audio";
            /**
             * Read As
             * @description Set when the content, not the name, decided the kind, e.g. "Read as a Word document: its name says .doc."
             */
            read_as?: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "ingesting" | "ready" | "failed" | "trashed";
        };
        /** ActiveModelOut */
        ActiveModelOut: {
            /** Kind */
            kind: ("ollama" | "local") | null;
            /** Model */
            model: string;
            /** Name */
            name: string;
            /** Passages Per S */
            passages_per_s: number | null;
        };
        /** AnswerIn */
        AnswerIn: {
            /** Choice Index */
            choice_index: number;
            /**
             * Question Id
             * Format: uuid
             */
            question_id: string;
            /**
             * Unsure
             * @default false
             */
            unsure: boolean;
        };
        /** AnswerNoteIn */
        AnswerNoteIn: {
            /** Category */
            category?: string | null;
            /**
             * Message Id
             * Format: uuid
             */
            message_id: string;
            /**
             * Session Id
             * Format: uuid
             */
            session_id: string;
            /** Title */
            title?: string | null;
        };
        /** AnswerOut */
        AnswerOut: {
            /**
             * Answered At
             * Format: date-time
             */
            answered_at: string;
            /** Choice Index */
            choice_index: number;
            /** Correct */
            correct: boolean;
            /** Correct Index */
            correct_index: number;
            /** Explanation */
            explanation: string;
            /** Question Id */
            question_id: string;
            /** Unsure */
            unsure: boolean;
        };
        /** AttemptIn */
        AttemptIn: {
            /**
             * Restart
             * @default false
             */
            restart: boolean;
        };
        /** AttemptOut */
        AttemptOut: {
            /** Answered */
            answered: number;
            /** Answers */
            answers: components["schemas"]["AnswerOut"][];
            /** Correct */
            correct: number;
            /** Finished At */
            finished_at: string | null;
            /** Id */
            id: string;
            /** Quiz Id */
            quiz_id: string;
            /** Score */
            score: number;
            /**
             * Started At
             * Format: date-time
             */
            started_at: string;
            /** Total */
            total: number;
        };
        /** BadgeOut */
        BadgeOut: {
            /** Code */
            code: string;
            /** Description */
            description: string;
            /** Earned */
            earned: boolean;
            /** Earned At */
            earned_at: string | null;
            /** Group */
            group: string;
            /** Icon */
            icon: string;
            /** Metric */
            metric: string;
            /** Name */
            name: string;
            /** Next Level */
            next_level?: string | null;
            /** Progress */
            progress: number;
            /** Target */
            target: number;
            /** Value */
            value: number;
        };
        /** BadgesOut */
        BadgesOut: {
            /** Badges */
            badges: components["schemas"]["BadgeOut"][];
            /** Earned */
            earned: number;
            /** Total */
            total: number;
        };
        /** BlockCounts */
        BlockCounts: {
            /** Embedded */
            embedded: number;
            /** Embedded Share */
            embedded_share: number;
            /** Total */
            total: number;
        };
        /** BlockWindow */
        BlockWindow: {
            /** Blocks */
            blocks: components["schemas"]["ViewerBlock"][];
            /** Has After */
            has_after: boolean;
            /** Has Before */
            has_before: boolean;
            /** Notice */
            notice?: string | null;
            /**
             * Target
             * @description The block asked for with `around`, when it is live
             */
            target: string | null;
            /** Total */
            total: number;
        };
        /** BreakdownItem */
        BreakdownItem: {
            /** Events */
            events: number;
            /**
             * Kind
             * @enum {string}
             */
            kind: "chat_message" | "quiz_answer" | "card_review" | "lesson_read" | "mindmap_export";
            /** Label */
            label: string;
            /** Minutes */
            minutes: number;
            /** Seconds */
            seconds: number;
            /** Share */
            share: number;
        };
        /** BreakdownOut */
        BreakdownOut: {
            /** Items */
            items: components["schemas"]["BreakdownItem"][];
            /** Since */
            since: string | null;
            /** Total Seconds */
            total_seconds: number;
        };
        /** CardDraftIn */
        CardDraftIn: {
            /**
             * Block Id
             * Format: uuid
             */
            block_id: string;
            /**
             * Kind
             * @default basic
             * @enum {string}
             */
            kind: "basic" | "cloze" | "typed";
        };
        /**
         * CardDraftOut
         * @description A card as the model drafted it, to edit and then save with `POST /api/study/decks/{id}/cards`.
         */
        CardDraftOut: {
            /** Back */
            back: string;
            /** Block Ids */
            block_ids: string[];
            /** Front */
            front: string;
            /**
             * Kind
             * @enum {string}
             */
            kind: "basic" | "cloze" | "typed";
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
        };
        /**
         * CardIn
         * @description A new card. `back` may be empty for a cloze card (its "extra"); `block_ids`: passages it is made
         *     from (the card cites them and opens them).
         */
        CardIn: {
            /**
             * Back
             * @default
             */
            back: string;
            /** Block Ids */
            block_ids?: string[];
            /** Front */
            front: string;
            /**
             * Kind
             * @default basic
             * @enum {string}
             */
            kind: "basic" | "cloze" | "typed";
            /** Tags */
            tags?: string[];
        };
        /** CardOut */
        CardOut: {
            /** Back */
            back: string;
            /** Cloze N */
            cloze_n: number | null;
            /** Deck Id */
            deck_id: string;
            /** Difficulty */
            difficulty: number | null;
            /**
             * Due
             * Format: date-time
             */
            due: string;
            /** Front */
            front: string;
            /** Id */
            id: string;
            /** Intervals */
            intervals: {
                [key: string]: components["schemas"]["IntervalOut"];
            };
            /**
             * Kind
             * @enum {string}
             */
            kind: "basic" | "cloze" | "typed";
            /** Lapses */
            lapses: number;
            /** Last Review */
            last_review: string | null;
            /** Note Id */
            note_id: string | null;
            /**
             * Origin
             * @enum {string}
             */
            origin: "generated" | "manual" | "mistake" | "passage";
            /** Position */
            position: number;
            /** Question Id */
            question_id: string | null;
            /** Reps */
            reps: number;
            /** Segments */
            segments: components["schemas"]["SegmentOut"][] | null;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /** Stability */
            stability: number | null;
            /**
             * State
             * @enum {string}
             */
            state: "new" | "learning" | "review" | "relearning";
            /** Tags */
            tags: string[];
        };
        /** CardPatch */
        CardPatch: {
            /** Back */
            back?: string | null;
            /** Front */
            front?: string | null;
            /** Tags */
            tags?: string[] | null;
        };
        /** CardText */
        CardText: {
            /**
             * Back
             * @default
             */
            back: string;
            /** Front */
            front: string;
        };
        /** CategoryRow */
        CategoryRow: {
            /** Documents */
            documents: number;
            /** Name */
            name: string;
        };
        /** CategoryUpdate */
        CategoryUpdate: {
            /** Category */
            category: string | null;
        };
        /**
         * ChangeOut
         * @description One item whose cited passage changed: the item, the passage before and (if any) after.
         */
        ChangeOut: {
            /** Block Id */
            block_id: string;
            /** Document Id */
            document_id: string;
            /** Filename */
            filename: string;
            /** Item */
            item: {
                [key: string]: unknown;
            };
            /** Item Id */
            item_id: string;
            /**
             * Item Kind
             * @enum {string}
             */
            item_kind: "card" | "question";
            /** Kind */
            kind: string;
            new: components["schemas"]["PassageOut"] | null;
            old: components["schemas"]["PassageOut"] | null;
            /** Parent Id */
            parent_id: string;
            /** Parent Title */
            parent_title: string;
            /**
             * Status
             * @enum {string}
             */
            status: "changed" | "removed";
        };
        /** ChangesOut */
        ChangesOut: {
            /** Changes */
            changes: components["schemas"]["ChangeOut"][];
            /** Count */
            count: number;
        };
        /** ChatAttachment */
        ChatAttachment: {
            /**
             * Data
             * @description The file's bytes, base64-encoded (a data: URL is accepted too)
             */
            data: string;
            /**
             * Mime Type
             * @default
             */
            mime_type: string;
            /** Name */
            name: string;
        };
        /**
         * ChatCitation
         * @description One source of an answer, as the client sees it: the chat stream's `metadata` line (DESIGN §5, plus
         *     the whole passage in `text`) and each of a stored answer's `citations`. The one declaration of a
         *     citation: the OpenAPI document lists it, and the web app's type is generated from it. The fields
         *     after `score` came later: an answer stored before them lacks them.
         */
        ChatCitation: {
            /** Also At */
            also_at?: components["schemas"]["Location"][];
            /** Block Id */
            block_id: string;
            /** Document Id */
            document_id: string;
            /** Filename */
            filename: string;
            /** Kind */
            kind?: string | null;
            /** N */
            n: number;
            /** Page */
            page: number | null;
            /** Page Label */
            page_label?: string | null;
            /**
             * Relevant
             * @default true
             */
            relevant: boolean;
            /** Score */
            score: number;
            /** Section */
            section: string | null;
            /** Snippet */
            snippet: string;
            /**
             * Text
             * @default
             */
            text: string;
        };
        /** ChatMessageOut */
        ChatMessageOut: {
            /** Attachments */
            attachments: {
                [key: string]: unknown;
            }[];
            /** Citations */
            citations: components["schemas"]["ChatCitation"][];
            /** Content */
            content: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Error */
            error: {
                [key: string]: unknown;
            } | null;
            /**
             * Grounding
             * @description Final answers only: cited (cites a relevant passage), uncited (cites none of the relevant passages found), not_covered (nothing relevant found), passages (the model did not answer; the passages stand in); null for small talk and older answers
             */
            grounding?: ("cited" | "uncited" | "not_covered" | "passages") | null;
            /** Id */
            id: string;
            /** @description Final answers only; null when the model was not used */
            memory: components["schemas"]["MemoryInfo"] | null;
            /** @description Final answers only; null when the model was not reached */
            model?: components["schemas"]["ModelInfo"] | null;
            /** Role */
            role: string;
            /** Scope */
            scope: {
                [key: string]: unknown;
            } | null;
            /** Seq */
            seq: number;
            /** Status */
            status: string;
            /** Thinking */
            thinking: string | null;
            /** Tool Call Id */
            tool_call_id: string | null;
            /** Tool Calls */
            tool_calls: {
                [key: string]: unknown;
            }[] | null;
            /** Tool Name */
            tool_name: string | null;
            /** Tool Summary */
            tool_summary: string | null;
            /** Turn */
            turn: number;
        };
        /** ChatRequest */
        ChatRequest: {
            /** Attachments */
            attachments?: components["schemas"]["ChatAttachment"][];
            /** Message */
            message: string;
            /**
             * Reuse Attachments
             * @description With rewind_to_message_id: the rewound question's attachments (images and extracted documents) go with the new message too, in front of any new ones (the UI's regenerate action).
             * @default false
             */
            reuse_attachments: boolean;
            /** Rewind To Message Id */
            rewind_to_message_id?: string | null;
            scope?: components["schemas"]["ChatScope"] | null;
            /** Session Id */
            session_id?: string | null;
        };
        /** ChatScope */
        ChatScope: {
            /** Categories */
            categories?: string[] | null;
            /** Document Ids */
            document_ids?: string[] | null;
        };
        /** ChatSessionDetail */
        ChatSessionDetail: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Id */
            id: string;
            /** Messages */
            messages: components["schemas"]["ChatMessageOut"][];
            /** Scope */
            scope: {
                [key: string]: unknown;
            };
            /** Title */
            title: string;
            /** Title Is Custom */
            title_is_custom: boolean;
            /** Turns */
            turns: number;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /** ChatSessionOut */
        ChatSessionOut: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Id */
            id: string;
            /** Scope */
            scope: {
                [key: string]: unknown;
            };
            /** Title */
            title: string;
            /** Title Is Custom */
            title_is_custom: boolean;
            /** Turns */
            turns: number;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /** ChatSessionRename */
        ChatSessionRename: {
            /** Title */
            title: string;
        };
        /** ChatStreamLine */
        ChatStreamLine: components["schemas"]["StartLine"] | components["schemas"]["ModelLine"] | components["schemas"]["ProgressLine"] | components["schemas"]["ThinkingLine"] | components["schemas"]["ToolLine"] | components["schemas"]["MetadataLine"] | components["schemas"]["TextLine"] | components["schemas"]["GroundingLine"] | components["schemas"]["MemoryLine"] | components["schemas"]["ErrorLine"] | components["schemas"]["DoneLine"];
        /** CompleteIn */
        CompleteIn: {
            /**
             * Completed
             * @default true
             */
            completed: boolean;
        };
        /** DailyOut */
        DailyOut: {
            /** Days */
            days: components["schemas"]["DayOut"][];
            /**
             * End
             * Format: date
             */
            end: string;
            /**
             * Start
             * Format: date
             */
            start: string;
            /** Timezone */
            timezone: string;
        };
        /** DatabaseLocation */
        DatabaseLocation: {
            /** Bytes */
            bytes?: number | null;
            /** Embedded */
            embedded: boolean;
            /** Path */
            path: string | null;
        };
        /** DayDetailOut */
        DayDetailOut: {
            /**
             * Date
             * Format: date
             */
            date: string;
            /** Events */
            events: components["schemas"]["EventOut"][];
            /** Minutes */
            minutes: number;
            /** Seconds */
            seconds: number;
            /** Sessions */
            sessions: components["schemas"]["SessionOut"][];
            /** Timezone */
            timezone: string;
        };
        /** DayOut */
        DayOut: {
            /** By Kind */
            by_kind: {
                [key: string]: number;
            };
            /**
             * Date
             * Format: date
             */
            date: string;
            /** Events */
            events: number;
            /** Minutes */
            minutes: number;
            /** Seconds */
            seconds: number;
            /** Sessions */
            sessions: number;
        };
        /** DbosHealth */
        DbosHealth: {
            /** Application Version */
            application_version: string;
            /** Error */
            error?: string | null;
            /** Executor Id */
            executor_id: string;
            /** Ok */
            ok: boolean;
        };
        /** DeckOut */
        DeckOut: {
            /** Card Count */
            card_count: number;
            /** Cards */
            cards: components["schemas"]["CardOut"][];
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Due Count */
            due_count: number;
            /** Id */
            id: string;
            /** Last Reviewed At */
            last_reviewed_at: string | null;
            /** New Count */
            new_count: number;
            /** Purpose */
            purpose: "mistakes" | null;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
        };
        /** DeckRequest */
        DeckRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Count
             * @default 20
             * @enum {integer}
             */
            count: 10 | 20 | 40;
            scope?: components["schemas"]["ScopeIn"];
        };
        /** DeckSummary */
        DeckSummary: {
            /** Card Count */
            card_count: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Due Count */
            due_count: number;
            /** Id */
            id: string;
            /** Last Reviewed At */
            last_reviewed_at: string | null;
            /** New Count */
            new_count: number;
            /** Purpose */
            purpose: "mistakes" | null;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
        };
        /** DocumentCounts */
        DocumentCounts: {
            /** Categories */
            categories: number;
            /** Failed */
            failed: number;
            /** Ingesting */
            ingesting: number;
            /** Original Bytes */
            original_bytes: number;
            /** Ready */
            ready: number;
            /** Total */
            total: number;
        };
        /** DocumentOut */
        DocumentOut: {
            /** Blocks */
            blocks: number;
            /** Category */
            category: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Current Version */
            current_version: number;
            /** Embedded */
            embedded: number;
            /** Embedded Fraction */
            embedded_fraction: number;
            /** Error */
            error: string | null;
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /** Kind */
            kind: ("pdf" | "docx" | "pptx" | "xlsx" | "csv" | "md" | "txt" | "html" | "image" | "audio") | null;
            /**
             * Language
             * @description The language it was read in, where the reading decided one: a recording's speech (en, de)
             */
            language?: string | null;
            /** Last Workflow Id */
            last_workflow_id: string | null;
            /** Mime */
            mime: string | null;
            /**
             * Page Warnings
             * @default []
             */
            page_warnings: components["schemas"]["PageWarningRow"][];
            /** Pages */
            pages: number | null;
            /** Read As */
            read_as?: string | null;
            /** Size Bytes */
            size_bytes: number | null;
            /**
             * Source Kind
             * @default document
             * @enum {string}
             */
            source_kind: "document" | "note";
            /** Source Url */
            source_url: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "ingesting" | "ready" | "failed" | "trashed";
            /** Trashed At */
            trashed_at: string | null;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Versions */
            versions: number;
            /** Warnings */
            warnings: string[];
        };
        /**
         * DocumentStep
         * @description One of a document's steps: read (extract and chunk), store, embed (all its batches).
         */
        DocumentStep: {
            /** Executions */
            executions: number;
            /** Finished At */
            finished_at: string | null;
            /**
             * Name
             * @enum {string}
             */
            name: "read" | "store" | "embed";
            /** Parts */
            parts: number;
            /** Seconds */
            seconds: number | null;
            /** Started At */
            started_at: string;
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "finished" | "error";
        };
        /** DoneLine */
        DoneLine: {
            data: components["schemas"]["StreamDone"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "done";
        };
        /** DueOut */
        DueOut: {
            /** Cards */
            cards: components["schemas"]["CardOut"][];
            /** Deck Id */
            deck_id: string;
            /** Due Count */
            due_count: number;
            /**
             * Now
             * Format: date-time
             */
            now: string;
        };
        /** EmbedderHealth */
        EmbedderHealth: {
            /** Error */
            error: string | null;
            /**
             * Kind
             * @enum {string}
             */
            kind: "ollama" | "local";
            /** Model */
            model: string;
            /** Name */
            name: string;
            /** Passages Per S */
            passages_per_s?: number | null;
            progress?: components["schemas"]["EmbeddingProgress"] | null;
            /** Ready */
            ready: boolean;
            /** State */
            state: ("not loaded" | "loading" | "ready" | "unavailable") | null;
        };
        /** EmbeddingChoiceOut */
        EmbeddingChoiceOut: {
            /** Dimension */
            dimension: number | null;
            /**
             * Kind
             * @enum {string}
             */
            kind: "ollama" | "local";
            /** Model */
            model: string;
            /** Name */
            name: string;
        };
        /**
         * EmbeddingModelOut
         * @description The vault's active embedding model (`GET /api/vault/embedding` switches it). `name`: Ollama's model,
         *     or the in-process one; `present`: it can make vectors now (pulled in Ollama, or the local model not
         *     failing to load).
         */
        EmbeddingModelOut: {
            /** Embedder */
            embedder: string;
            /** Name */
            name: string;
            /** Passages Per S */
            passages_per_s: number | null;
            /** Present */
            present: boolean;
            /** Recorded As */
            recorded_as: string;
            /** State */
            state: ("not loaded" | "loading" | "ready" | "unavailable") | null;
        };
        /** EmbeddingOut */
        EmbeddingOut: {
            active: components["schemas"]["ActiveModelOut"];
            /** Choices */
            choices: components["schemas"]["EmbeddingChoiceOut"][];
            /** Ollama Reachable */
            ollama_reachable: boolean;
            switch: components["schemas"]["SwitchOut"] | null;
        };
        /** EmbeddingProgress */
        EmbeddingProgress: {
            /** Embedded */
            embedded: number;
            /** Model */
            model: string;
            /** Passages Per S */
            passages_per_s: number | null;
            /** Seconds Left */
            seconds_left: number | null;
            /** Sentence */
            sentence: string;
            /** Total */
            total: number;
            /** Waiting Documents */
            waiting_documents: number;
        };
        /** Error */
        Error: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description More, where the error has it (per-field problems of a 422) */
                details?: unknown;
                /** @description What went wrong, in words for people */
                message: string;
            };
        };
        /**
         * ErrorCode
         * @description What went wrong, for programs (`not_found`, ...)
         * @enum {string}
         */
        ErrorCode: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "too_large" | "unsupported_media_type" | "invalid_request" | "too_many_requests" | "unavailable" | "http_error" | "internal_error" | "host_not_allowed" | "cross_site_request" | "database_unavailable" | "busy" | "malformed_upload" | "request_too_large" | "too_many_fields" | "field_too_large" | "too_many_files" | "no_files" | "empty_file" | "duplicate_name" | "invalid_category" | "invalid_on_conflict" | "name_conflict" | "name_taken" | "unsupported_type" | "content_mismatch" | "zip_bomb" | "pdf_corrupt" | "pdf_encrypted" | "pdf_no_pages" | "unreadable_pdf" | "csv_corrupt" | "docx_corrupt" | "pptx_corrupt" | "xlsx_corrupt" | "image_too_large" | "image_unreadable" | "ocr_unreadable" | "invalid_filename" | "no_text" | "extract_failed" | "file_missing" | "original_missing" | "not_ready" | "not_failed" | "not_trashed" | "current_version" | "invalid_document_id" | "unknown_documents" | "scope_too_large" | "url_invalid" | "url_scheme" | "url_private" | "url_unresolvable" | "url_unreachable" | "url_timeout" | "url_redirects" | "url_http_error" | "url_too_large" | "not_a_pdf" | "page_out_of_range" | "page_too_complex" | "block_not_found" | "missing_passage" | "invalid_page_range" | "out_of_range" | "empty_query" | "query_too_long" | "empty_message" | "message_too_long" | "too_many_attachments" | "invalid_attachment" | "unsupported_attachment" | "attachment_too_large" | "attachment_unreadable" | "attachment_failed" | "invalid_session_id" | "rewind_without_session" | "reuse_without_rewind" | "invalid_content" | "model_unavailable" | "model_error" | "empty_answer" | "prompt_error" | "storage_error" | "unknown_embedding_model" | "generation_failed" | "empty_scope" | "empty_title" | "lessons_incomplete" | "already_answered" | "invalid_choice" | "review_conflict" | "unknown_nodes" | "voice_unavailable" | "missing_audio" | "audio_too_large" | "audio_too_long" | "unreadable_audio" | "unsupported_audio" | "unsupported_language" | "audio_too_complex" | "no_weak_spots" | "not_enough_reviews" | "optimizer_missing" | "fit_failed" | "exam_in_past" | "exam_too_far" | "passage_removed" | "missing_update" | "invalid_card" | "draft_failed" | "lesson_not_written" | "not_a_note" | "note_moved" | "note_refused";
        /** ErrorLine */
        ErrorLine: {
            data: components["schemas"]["StreamError"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "error";
        };
        /** EventOut */
        EventOut: {
            /** Id */
            id: number;
            /**
             * Kind
             * @enum {string}
             */
            kind: "chat_message" | "quiz_answer" | "card_review" | "lesson_read" | "mindmap_export";
            /** Local Time */
            local_time: string;
            /**
             * Occurred At
             * Format: date-time
             */
            occurred_at: string;
            /** Ref */
            ref: string | null;
        };
        /**
         * ExistingDocumentOut
         * @description The document an upload's name collides with.
         */
        ExistingDocumentOut: {
            /** Category */
            category: string | null;
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /** Size Bytes */
            size_bytes: number | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "ingesting" | "ready" | "failed" | "trashed";
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /** ExportIn */
        ExportIn: {
            /**
             * Format
             * @enum {string}
             */
            format: "png" | "pdf" | "markdown";
        };
        /** ExportOut */
        ExportOut: {
            /**
             * Exported At
             * Format: date-time
             */
            exported_at: string;
            /**
             * Format
             * @enum {string}
             */
            format: "png" | "pdf" | "markdown";
            /** Mindmap Id */
            mindmap_id: string;
        };
        /** FitOut */
        FitOut: {
            /** Cards */
            cards: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Log Loss After */
            log_loss_after: number;
            /** Log Loss Before */
            log_loss_before: number;
            /** Reviews */
            reviews: number;
            /** Rmse After */
            rmse_after: number;
            /** Rmse Before */
            rmse_before: number;
        };
        /**
         * GenerateRequest
         * @description Fields every generation request has. `client_token`: the same token with the same parameters
         *     always answers with the same job (a double click never generates twice); without one, identical
         *     requests share the job while it is queued or running.
         */
        GenerateRequest: {
            /** Client Token */
            client_token?: string | null;
            scope?: components["schemas"]["ScopeIn"];
        };
        /**
         * GradedAnswer
         * @description The answer just given, graded, with the explanation, its sources and the attempt's new totals.
         */
        GradedAnswer: {
            /**
             * Answered At
             * Format: date-time
             */
            answered_at: string;
            attempt: components["schemas"]["AttemptOut"];
            /** Choice Index */
            choice_index: number;
            /** Correct */
            correct: boolean;
            /** Correct Index */
            correct_index: number;
            /** Explanation */
            explanation: string;
            mistake_card: components["schemas"]["MistakeCardOut"] | null;
            /** Question Id */
            question_id: string;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /** Unsure */
            unsure: boolean;
        };
        /** GroundingInfo */
        GroundingInfo: {
            /** Message */
            message: string;
            /**
             * Status
             * @enum {string}
             */
            status: "cited" | "uncited" | "not_covered" | "passages";
        };
        /** GroundingLine */
        GroundingLine: {
            data: components["schemas"]["GroundingInfo"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "grounding";
        };
        /** GuideEntryOut */
        GuideEntryOut: {
            /** Heading */
            heading: string;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /** Text */
            text: string;
        };
        /** GuideOut */
        GuideOut: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Entries */
            entries: components["schemas"]["GuideEntryOut"][];
            /** Entry Count */
            entry_count: number;
            /**
             * Guide Type
             * @enum {string}
             */
            guide_type: "briefing" | "faq" | "glossary" | "timeline";
            /** Id */
            id: string;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
        };
        /** GuideRequest */
        GuideRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Guide Type
             * @default briefing
             * @enum {string}
             */
            guide_type: "briefing" | "faq" | "glossary" | "timeline";
            scope?: components["schemas"]["ScopeIn"];
        };
        /** GuideSummary */
        GuideSummary: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Entry Count */
            entry_count: number;
            /**
             * Guide Type
             * @enum {string}
             */
            guide_type: "briefing" | "faq" | "glossary" | "timeline";
            /** Id */
            id: string;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
        };
        /** Health */
        Health: {
            dbos: components["schemas"]["DbosHealth"];
            embedder: components["schemas"]["EmbedderHealth"];
            /** Hints */
            hints: string[];
            /** Index */
            index: {
                [key: string]: unknown;
            };
            ollama: components["schemas"]["OllamaHealth"];
            postgres: components["schemas"]["PostgresHealth"];
            privacy: components["schemas"]["PrivacyOut"];
            /** Processes */
            processes: components["schemas"]["ProcessStatus"][];
            /**
             * Status
             * @enum {string}
             */
            status: "ok" | "degraded";
            /** Takeovers */
            takeovers: components["schemas"]["Takeover"][];
            /** Version */
            version: string;
            voice: components["schemas"]["VoiceHealth"];
        };
        /** Hit */
        Hit: {
            /**
             * Also At
             * @default []
             */
            also_at: components["schemas"]["Location"][];
            /** Block Id */
            block_id: string;
            /** Dense Rank */
            dense_rank: number | null;
            /** Document Id */
            document_id: string;
            /** Document Kind */
            document_kind?: string | null;
            /** Filename */
            filename: string;
            /** Kind */
            kind: string;
            /** Page */
            page: number | null;
            /** Page Label */
            page_label?: string | null;
            /** Relevance */
            relevance: number;
            /** Relevant */
            relevant: boolean;
            /** Score */
            score: number;
            /** Section */
            section: string | null;
            /** Snippet */
            snippet: string;
            /** Sparse Rank */
            sparse_rank: number | null;
            /** Text */
            text: string;
        };
        /** IndexOut */
        IndexOut: {
            /** Blocks */
            blocks: number;
            /** Built In S */
            built_in_s: number | null;
            /** Dimension */
            dimension: number | null;
            /** Documents */
            documents: number;
            /** Embed Model */
            embed_model: string;
            /** Embedded Blocks */
            embedded_blocks: number;
            /** Memory Bytes */
            memory_bytes: number;
            /**
             * State
             * @enum {string}
             */
            state: "empty" | "building" | "ready";
        } & {
            [key: string]: unknown;
        };
        /** IntervalOut */
        IntervalOut: {
            /**
             * Due
             * Format: date-time
             */
            due: string;
            /** Label */
            label: string;
            /** Seconds */
            seconds: number;
        };
        /** ItemRef */
        ItemRef: {
            /** Block Id */
            block_id: string;
            /** Item Id */
            item_id: string;
            /**
             * Item Kind
             * @enum {string}
             */
            item_kind: "card" | "question";
        };
        /** JobError */
        JobError: {
            /** Code */
            code: string;
            /** Message */
            message: string;
        };
        /** JobOut */
        JobOut: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Draft */
            draft?: string | null;
            error: components["schemas"]["JobError"] | null;
            /** Finished At */
            finished_at: string | null;
            /** Job Id */
            job_id: string;
            /**
             * Kind
             * @enum {string}
             */
            kind: "quiz" | "deck" | "workshop" | "mindmap" | "lesson" | "recap" | "weak_spots" | "guide" | "optimize" | "audio_overview";
            report?: components["schemas"]["JobReport"] | null;
            /** Result Id */
            result_id: string | null;
            /** Result Url */
            result_url: string | null;
            /** Started At */
            started_at: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
        };
        /**
         * JobReport
         * @description What the generation asked the model for and kept: `repaired` counts mechanical fixes (a repeated
         *     option removed, an index brought back to the option its explanation names), `dropped` the items the
         *     validator refused, by reason; `reasked`: items asked for once more because too few were usable.
         */
        JobReport: {
            /** Asked */
            asked: number;
            /** Dropped */
            dropped: {
                [key: string]: number;
            };
            /** Kept */
            kept: number;
            /** Reasked */
            reasked: number;
            /** Repaired */
            repaired: {
                [key: string]: number;
            };
        };
        /** LayoutIn */
        LayoutIn: {
            /**
             * Layout
             * @enum {string}
             */
            layout: "LR" | "TB";
            /** Positions */
            positions?: {
                [key: string]: components["schemas"]["Position"];
            };
        };
        /** LessonMeta */
        LessonMeta: {
            /** Completed At */
            completed_at: string | null;
            /** Estimated Minutes */
            estimated_minutes: number;
            /** N */
            n: number;
            /** Summary */
            summary: string;
            /** Title */
            title: string;
            /** Written */
            written: boolean;
            /** Written At */
            written_at: string | null;
        };
        /** LessonOut */
        LessonOut: {
            /** Completed At */
            completed_at: string | null;
            /** Content */
            content: string;
            /** Estimated Minutes */
            estimated_minutes: number;
            /** N */
            n: number;
            regenerating: components["schemas"]["JobOut"] | null;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /** Summary */
            summary: string;
            /** Title */
            title: string;
            /** Written At */
            written_at: string | null;
        };
        /**
         * Location
         * @description Another place in the same document where a hit's text stands as well.
         */
        Location: {
            /** Block Id */
            block_id: string;
            /** Page */
            page: number | null;
            /** Page Label */
            page_label: string | null;
            /** Section */
            section: string | null;
        };
        /**
         * MemoryInfo
         * @description How full the conversation's memory was for an answer: the `memory` line, stored with the answer.
         */
        MemoryInfo: {
            /** Answer Tokens */
            answer_tokens?: number;
            /** Budget Chars */
            budget_chars: number;
            /** Context Tokens */
            context_tokens?: number;
            /** Passages Dropped */
            passages_dropped?: number;
            /** Turns Dropped */
            turns_dropped: number;
            /** Turns Kept */
            turns_kept: number;
            /** Used Chars */
            used_chars: number;
            /** Used Tokens */
            used_tokens?: number;
        };
        /** MemoryLine */
        MemoryLine: {
            data: components["schemas"]["MemoryInfo"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "memory";
        };
        /** MetadataLine */
        MetadataLine: {
            data: components["schemas"]["ChatCitation"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "metadata";
        };
        /** MindNode */
        MindNode: {
            /** Children */
            children: components["schemas"]["MindNode"][];
            /** Id */
            id: string;
            /** Label */
            label: string;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
        };
        /** MindmapOut */
        MindmapOut: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Depth */
            depth: number;
            /** Exports */
            exports: number;
            /** Id */
            id: string;
            /**
             * Layout
             * @enum {string}
             */
            layout: "LR" | "TB";
            /** Node Count */
            node_count: number;
            /** Positions */
            positions: {
                [key: string]: components["schemas"]["Position"];
            };
            root: components["schemas"]["MindNode"];
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /** MindmapRequest */
        MindmapRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Depth
             * @default 2
             * @enum {integer}
             */
            depth: 2 | 3;
            scope?: components["schemas"]["ScopeIn"];
        };
        /** MindmapSummary */
        MindmapSummary: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Depth */
            depth: number;
            /** Exports */
            exports: number;
            /** Id */
            id: string;
            /**
             * Layout
             * @enum {string}
             */
            layout: "LR" | "TB";
            /** Node Count */
            node_count: number;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * MistakeCardOut
         * @description Where a missed question went: its card in the scope's Mistakes deck.
         */
        MistakeCardOut: {
            /** Card Id */
            card_id: string;
            /** Deck Id */
            deck_id: string;
        };
        /**
         * ModelInfo
         * @description The model that wrote an answer and what it could do: the `model` line, stored with the answer.
         */
        ModelInfo: {
            /** Context Length */
            context_length: number | null;
            /** Context Tokens */
            context_tokens: number;
            /** Name */
            name: string;
            /**
             * Reasoning
             * @enum {string}
             */
            reasoning: "shown" | "unsupported" | "skipped";
            /** Thinking */
            thinking: boolean;
            /** Tools */
            tools: boolean;
            /** Vision */
            vision: boolean;
        };
        /** ModelLine */
        ModelLine: {
            data: components["schemas"]["ModelInfo"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "model";
        };
        /** ModelOut */
        ModelOut: {
            /** Name */
            name: string;
            /** Present */
            present: boolean;
        };
        /** ModelPresence */
        ModelPresence: {
            /** Name */
            name: string;
            /** Present */
            present: boolean;
        };
        /** ModelsOut */
        ModelsOut: {
            chat: components["schemas"]["ModelOut"];
            embedding: components["schemas"]["EmbeddingModelOut"];
            ollama: components["schemas"]["OllamaOut"];
        };
        /** NameConflictBody */
        NameConflictBody: {
            /**
             * Code
             * @constant
             */
            code: "name_conflict";
            details: components["schemas"]["NameConflictDetails"];
            /** Message */
            message: string;
        };
        /**
         * NameConflictDetails
         * @description `details` of a 409 `name_conflict`: one entry per uploaded file whose name is taken.
         */
        NameConflictDetails: {
            /** Conflicts */
            conflicts: components["schemas"]["NameConflictOut"][];
        };
        /**
         * NameConflictError
         * @description 409 of an upload whose names are taken in the category by other files (nothing was stored).
         */
        NameConflictError: {
            error: components["schemas"]["NameConflictBody"];
        };
        /** NameConflictOut */
        NameConflictOut: {
            existing: components["schemas"]["ExistingDocumentOut"];
            /** Filename */
            filename: string;
        };
        /** NewDeckIn */
        NewDeckIn: {
            scope?: components["schemas"]["ScopeIn"];
            /** Title */
            title: string;
        };
        /** NoteEdit */
        NoteEdit: {
            /** Markdown */
            markdown: string;
        };
        /** NoteIn */
        NoteIn: {
            /** Category */
            category?: string | null;
            /** Markdown */
            markdown: string;
            /** Title */
            title: string;
        };
        /** NoteOut */
        NoteOut: {
            /** Category */
            category: string | null;
            /** Document Id */
            document_id: string;
            /** Filename */
            filename: string;
            /** Markdown */
            markdown: string;
            /** Status */
            status: string;
            /** Version */
            version: number | null;
            /** Workflow Id */
            workflow_id: string | null;
        };
        /** OllamaHealth */
        OllamaHealth: {
            chat_model: components["schemas"]["ModelPresence"];
            embed_model: components["schemas"]["ModelPresence"];
            /** Error */
            error: string | null;
            /** Host */
            host: string;
            /** Models */
            models: string[];
            /** Reachable */
            reachable: boolean;
        };
        /** OllamaOut */
        OllamaOut: {
            /** Available */
            available: string[];
            /** Host */
            host: string;
            /** Reachable */
            reachable: boolean;
        };
        /** OpenAttempt */
        OpenAttempt: {
            /** Answered */
            answered: number;
            /** Total */
            total: number;
        };
        /** OutboundOut */
        OutboundOut: {
            /** Bytes */
            bytes: number;
            /** Last At */
            last_at: string | null;
            /** Recent */
            recent: components["schemas"]["OutboundRequest"][];
            /** Requests */
            requests: number;
        };
        /** OutboundRequest */
        OutboundRequest: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Host */
            host: string;
            /** Ok */
            ok: boolean;
            /** Status */
            status: number | null;
            /** Url */
            url: string;
        };
        /** Outline */
        Outline: {
            /** Blocks */
            blocks: number;
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /** Kind */
            kind: string | null;
            /**
             * Language
             * @description The language it was read in, where the reading decided one (a recording's speech: en, de)
             */
            language: string | null;
            /**
             * Page Warnings
             * @description Pages that could not be read reliably: shown as images, their text left out
             */
            page_warnings: components["schemas"]["PageWarningRow"][];
            /**
             * Pages
             * @description PDF pages, slides or a workbook's sheets; null for formats without them
             */
            pages: number | null;
            /** Sections */
            sections: components["schemas"]["SectionRow"][];
            /** Status */
            status: string;
        };
        /** OverviewLineOut */
        OverviewLineOut: {
            /** End S */
            end_s: number | null;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /**
             * Speaker
             * @enum {string}
             */
            speaker: "A" | "B";
            /** Start S */
            start_s: number | null;
            /** Text */
            text: string;
        };
        /** OverviewOut */
        OverviewOut: {
            /** Audio Url */
            audio_url: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Download Url */
            download_url: string | null;
            /** Duration S */
            duration_s: number | null;
            error: components["schemas"]["JobError"] | null;
            /** Id */
            id: string;
            /** Language */
            language: string;
            /** Line Count */
            line_count: number;
            /** Lines */
            lines: components["schemas"]["OverviewLineOut"][];
            /** Lines Done */
            lines_done: number;
            scope: components["schemas"]["ScopeOut"];
            /**
             * State
             * @enum {string}
             */
            state: "synthesizing" | "ready" | "failed";
            /** Title */
            title: string;
            /** Voices */
            voices: {
                [key: string]: string;
            };
        };
        /** OverviewRequest */
        OverviewRequest: {
            /** Client Token */
            client_token?: string | null;
            scope?: components["schemas"]["ScopeIn"];
        };
        /** OverviewSummary */
        OverviewSummary: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Duration S */
            duration_s: number | null;
            /** Id */
            id: string;
            /** Language */
            language: string;
            /** Line Count */
            line_count: number;
            /** Lines Done */
            lines_done: number;
            scope: components["schemas"]["ScopeOut"];
            /**
             * State
             * @enum {string}
             */
            state: "synthesizing" | "ready" | "failed";
            /** Title */
            title: string;
        };
        /** PageHighlights */
        PageHighlights: {
            /** Height */
            height: number;
            /** Matched Words */
            matched_words: number;
            /** Page */
            page: number;
            /** Passage Words */
            passage_words: number;
            /** Rects */
            rects: components["schemas"]["Rect"][];
            /** Width */
            width: number;
        };
        /**
         * PageWarningRow
         * @description A page (or slide) that could not be read reliably, with what to say about it (`page_warnings`).
         */
        PageWarningRow: {
            /** Message */
            message: string;
            /** Page */
            page: number;
        };
        /** PassageOut */
        PassageOut: {
            /** Block Id */
            block_id: string;
            /** Page */
            page: number | null;
            /** Text */
            text: string;
        };
        /**
         * PlanCardsOut
         * @description Today's cards of the plan, to review in one session (each with its deck).
         */
        PlanCardsOut: {
            /** Cards */
            cards: components["schemas"]["CardOut"][];
            /** Plan Id */
            plan_id: string;
        };
        /** PlanDayOut */
        PlanDayOut: {
            /**
             * Date
             * Format: date
             */
            date: string;
            /** New */
            new: number;
            /** Quiz */
            quiz: boolean;
            /** Reviews */
            reviews: number;
        };
        /** PlanIn */
        PlanIn: {
            /**
             * Exam Date
             * Format: date
             */
            exam_date: string;
            scope?: components["schemas"]["PlanScopeIn"];
            /**
             * Target Retention
             * @default 0.9
             */
            target_retention: number;
            /** Title */
            title?: string | null;
        };
        /** PlanOut */
        PlanOut: {
            /** At Target */
            at_target: number;
            /** Cards */
            cards: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Days */
            days: components["schemas"]["PlanDayOut"][];
            /** Days Left */
            days_left: number;
            /**
             * Exam Date
             * Format: date
             */
            exam_date: string;
            /** Id */
            id: string;
            /** Message */
            message: string;
            /** New Left */
            new_left: number;
            /** Retention Now */
            retention_now: number;
            /** Retention Planned */
            retention_planned: number;
            scope: components["schemas"]["PlanScopeOut"];
            /**
             * Status
             * @enum {string}
             */
            status: "on_track" | "behind" | "exam_today" | "exam_passed" | "nothing_to_study";
            /** Target Retention */
            target_retention: number;
            /** Title */
            title: string;
            today: components["schemas"]["TodayOut"];
        };
        /** PlanPatch */
        PlanPatch: {
            /** Exam Date */
            exam_date?: string | null;
            /** Target Retention */
            target_retention?: number | null;
            /** Title */
            title?: string | null;
        };
        /** PlanScopeIn */
        PlanScopeIn: {
            /** Categories */
            categories?: string[];
            /** Deck Ids */
            deck_ids?: string[];
            /** Document Ids */
            document_ids?: string[];
        };
        /** PlanScopeOut */
        PlanScopeOut: {
            /** Categories */
            categories: string[];
            /** Deck Ids */
            deck_ids: string[];
            /** Document Ids */
            document_ids: string[];
        };
        /** Position */
        Position: {
            /** X */
            x: number;
            /** Y */
            y: number;
        };
        /** PostgresHealth */
        PostgresHealth: {
            /** Embedded */
            embedded: boolean;
            /** Ok */
            ok: boolean;
        };
        /** PrivacyFlag */
        PrivacyFlag: {
            /** Host */
            host: string;
            /** Message */
            message: string;
            /**
             * Setting
             * @enum {string}
             */
            setting: "OLLAMA_HOST" | "DATABASE_URL";
        };
        /** PrivacyOut */
        PrivacyOut: {
            /** Destinations */
            destinations: components["schemas"]["RemoteDestination"][];
            /** Flags */
            flags: components["schemas"]["PrivacyFlag"][];
            /** Local Only */
            local_only: boolean;
            /**
             * Watching Since
             * Format: date-time
             */
            watching_since: string;
        };
        /**
         * ProcessActivity
         * @description What a process reported with its last heartbeat: its pending workflows, counted by name.
         */
        ProcessActivity: {
            /**
             * By Workflow
             * @default {}
             */
            by_workflow: {
                [key: string]: number;
            };
            /**
             * Pending Workflows
             * @default 0
             */
            pending_workflows: number;
            /**
             * Work
             * @default {}
             */
            work: {
                [key: string]: number;
            };
        };
        /**
         * ProcessStatus
         * @description One Quire process (server or worker) sharing this database, as `/api/health` lists it.
         */
        ProcessStatus: {
            activity: components["schemas"]["ProcessActivity"];
            /** Address */
            address: string | null;
            /** Alive */
            alive: boolean;
            /** Executor Id */
            executor_id: string;
            /** Hostname */
            hostname: string;
            /**
             * Last Seen
             * Format: date-time
             */
            last_seen: string;
            /**
             * Mode
             * @enum {string}
             */
            mode: "server" | "worker";
            /** Pid */
            pid: number;
            /** Recovered Workflows */
            recovered_workflows: number;
            /** Sessions Ended */
            sessions_ended: number;
            /** Silent S */
            silent_s: number;
            /**
             * Started At
             * Format: date-time
             */
            started_at: string;
            /**
             * State
             * @enum {string}
             */
            state: "alive" | "silent" | "fenced" | "taken_over" | "stopped";
            /** Taken Over At */
            taken_over_at: string | null;
            /** Taken Over By */
            taken_over_by: string | null;
            /** This Process */
            this_process: boolean;
        };
        /** Progress */
        Progress: {
            /** Detail */
            detail: string;
            /** Done */
            done: number;
            /** Total */
            total: number;
        };
        /** ProgressLine */
        ProgressLine: {
            data: components["schemas"]["ReadingProgress"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "progress";
        };
        /** ProgressOut */
        ProgressOut: {
            /** All Complete */
            all_complete: boolean;
            /** Completed */
            completed: number;
            /** Progress */
            progress: number;
            /** Recap Quiz Id */
            recap_quiz_id: string | null;
            /** Total */
            total: number;
            /** Workshop Id */
            workshop_id: string;
        };
        /**
         * QuestionOut
         * @description A question as shown while taking the quiz: the answer comes back when it is submitted.
         */
        QuestionOut: {
            /** Id */
            id: string;
            /** Options */
            options: string[];
            /** Position */
            position: number;
            /** Question */
            question: string;
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /**
             * Type
             * @enum {string}
             */
            type: "mcq" | "true_false";
        };
        /**
         * QuizItem
         * @description One question as the model writes it.
         */
        QuizItem: {
            /** Correct Index */
            correct_index: number;
            /** Explanation */
            explanation: string;
            /** Options */
            options?: string[];
            /** Question */
            question: string;
            /**
             * Source Block Ids
             * @description ids of the passages used, e.g. ["P3"]
             */
            source_block_ids?: string[];
            /**
             * Type
             * @enum {string}
             */
            type: "mcq" | "true_false";
        };
        /** QuizOut */
        QuizOut: {
            /** Attempts */
            attempts: number;
            /** Best Score */
            best_score: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Difficulty
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            /** Id */
            id: string;
            /** Last Attempt At */
            last_attempt_at: string | null;
            open_attempt: components["schemas"]["OpenAttempt"] | null;
            /** Purpose */
            purpose: "weak_spots" | null;
            /** Question Count */
            question_count: number;
            /** Questions */
            questions: components["schemas"]["QuestionOut"][];
            /** Requested Count */
            requested_count: number;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
            /** Types */
            types: ("mcq" | "true_false")[];
            /** Workshop Id */
            workshop_id: string | null;
        };
        /** QuizPlanOut */
        QuizPlanOut: {
            /** Done */
            done: boolean;
            /**
             * Kind
             * @enum {string}
             */
            kind: "weak_spots" | "scope";
            /** Questions */
            questions: number;
            /** Reason */
            reason: string;
        };
        /** QuizRequest */
        QuizRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Count
             * @default 10
             * @enum {integer}
             */
            count: 5 | 10 | 20;
            /**
             * Difficulty
             * @default intermediate
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            scope?: components["schemas"]["ScopeIn"];
            /** Types */
            types?: ("mcq" | "true_false")[];
        };
        /** QuizSummary */
        QuizSummary: {
            /** Attempts */
            attempts: number;
            /** Best Score */
            best_score: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Difficulty
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            /** Id */
            id: string;
            /** Last Attempt At */
            last_attempt_at: string | null;
            open_attempt: components["schemas"]["OpenAttempt"] | null;
            /** Purpose */
            purpose: "weak_spots" | null;
            /** Question Count */
            question_count: number;
            /** Requested Count */
            requested_count: number;
            scope: components["schemas"]["ScopeOut"];
            /** Title */
            title: string;
            /** Types */
            types: ("mcq" | "true_false")[];
            /** Workshop Id */
            workshop_id: string | null;
        };
        /** Readiness */
        Readiness: {
            /** Executor Id */
            executor_id: string;
            /** Ready */
            ready: boolean;
        };
        /** ReadingProgress */
        ReadingProgress: {
            /** Prompt Tokens */
            prompt_tokens: number;
            /**
             * Stage
             * @constant
             */
            stage: "reading";
            /** Waited S */
            waited_s: number;
        };
        /** Rect */
        Rect: {
            /** X0 */
            x0: number;
            /** X1 */
            x1: number;
            /** Y0 */
            y0: number;
            /** Y1 */
            y1: number;
        };
        /** Refusal */
        Refusal: {
            /** Category */
            category: string | null;
            /** Code */
            code: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /** Message */
            message: string;
        };
        /** RefusalList */
        RefusalList: {
            /** Refusals */
            refusals: components["schemas"]["Refusal"][];
        };
        /** RefusalsDismissed */
        RefusalsDismissed: {
            /** Dismissed */
            dismissed: number;
        };
        /** RejectedUpload */
        RejectedUpload: {
            /**
             * Code
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "too_large" | "unsupported_media_type" | "invalid_request" | "too_many_requests" | "unavailable" | "http_error" | "internal_error" | "host_not_allowed" | "cross_site_request" | "database_unavailable" | "busy" | "malformed_upload" | "request_too_large" | "too_many_fields" | "field_too_large" | "too_many_files" | "no_files" | "empty_file" | "duplicate_name" | "invalid_category" | "invalid_on_conflict" | "name_conflict" | "name_taken" | "unsupported_type" | "content_mismatch" | "zip_bomb" | "pdf_corrupt" | "pdf_encrypted" | "pdf_no_pages" | "unreadable_pdf" | "csv_corrupt" | "docx_corrupt" | "pptx_corrupt" | "xlsx_corrupt" | "image_too_large" | "image_unreadable" | "ocr_unreadable" | "invalid_filename" | "no_text" | "extract_failed" | "file_missing" | "original_missing" | "not_ready" | "not_failed" | "not_trashed" | "current_version" | "invalid_document_id" | "unknown_documents" | "scope_too_large" | "url_invalid" | "url_scheme" | "url_private" | "url_unresolvable" | "url_unreachable" | "url_timeout" | "url_redirects" | "url_http_error" | "url_too_large" | "not_a_pdf" | "page_out_of_range" | "page_too_complex" | "block_not_found" | "missing_passage" | "invalid_page_range" | "out_of_range" | "empty_query" | "query_too_long" | "empty_message" | "message_too_long" | "too_many_attachments" | "invalid_attachment" | "unsupported_attachment" | "attachment_too_large" | "attachment_unreadable" | "attachment_failed" | "invalid_session_id" | "rewind_without_session" | "reuse_without_rewind" | "invalid_content" | "model_unavailable" | "model_error" | "empty_answer" | "prompt_error" | "storage_error" | "unknown_embedding_model" | "generation_failed" | "empty_scope" | "empty_title" | "lessons_incomplete" | "already_answered" | "invalid_choice" | "review_conflict" | "unknown_nodes" | "voice_unavailable" | "missing_audio" | "audio_too_large" | "audio_too_long" | "unreadable_audio" | "unsupported_audio" | "unsupported_language" | "audio_too_complex" | "no_weak_spots" | "not_enough_reviews" | "optimizer_missing" | "fit_failed" | "exam_in_past" | "exam_too_far" | "passage_removed" | "missing_update" | "invalid_card" | "draft_failed" | "lesson_not_written" | "not_a_note" | "note_moved" | "note_refused";
            /** Filename */
            filename: string;
            /** Message */
            message: string;
        };
        /** RemoteDestination */
        RemoteDestination: {
            /** Address */
            address: string;
            /** Connections */
            connections: number;
            /**
             * First Seen
             * Format: date-time
             */
            first_seen: string;
            /**
             * Last Seen
             * Format: date-time
             */
            last_seen: string;
        };
        /** ResolveIn */
        ResolveIn: {
            /**
             * Action
             * @enum {string}
             */
            action: "keep" | "update" | "retire";
            /** Block Id */
            block_id: string;
            card?: components["schemas"]["CardText"] | null;
            /** Item Id */
            item_id: string;
            /**
             * Item Kind
             * @enum {string}
             */
            item_kind: "card" | "question";
            question?: components["schemas"]["QuizItem"] | null;
        };
        /** ReviewIn */
        ReviewIn: {
            /**
             * Rating
             * @enum {string}
             */
            rating: "again" | "hard" | "good" | "easy";
        };
        /** ReviewOut */
        ReviewOut: {
            card: components["schemas"]["CardOut"];
            /**
             * Due
             * Format: date-time
             */
            due: string;
            /** Interval Label */
            interval_label: string;
            /** Interval Seconds */
            interval_seconds: number;
            /**
             * Rating
             * @enum {string}
             */
            rating: "again" | "hard" | "good" | "easy";
            /**
             * Reviewed At
             * Format: date-time
             */
            reviewed_at: string;
        };
        /**
         * RunDocument
         * @description One document of a run as the snapshot shows it (its item; `status` is the item's state).
         */
        RunDocument: {
            /** Blocks */
            blocks: number | null;
            /** Decision */
            decision: ("new" | "changed" | "unchanged" | "readded") | null;
            /** Embedded */
            embedded: number | null;
            /** Error */
            error: string | null;
            /** Filename */
            filename: string;
            /** Id */
            id: string;
            /**
             * Kind
             * @enum {string}
             */
            kind: "pdf" | "docx" | "pptx" | "xlsx" | "csv" | "md" | "txt" | "html" | "image" | "audio";
            /** Page Warnings */
            page_warnings: components["schemas"]["PageWarningRow"][];
            /** Pages */
            pages: number | null;
            progress: components["schemas"]["Progress"];
            /** Read As */
            read_as: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "queued" | "extracting" | "storing" | "embedding" | "ready" | "skipped" | "failed";
            /** Steps */
            steps: components["schemas"]["DocumentStep"][];
            /** Warnings */
            warnings: string[];
        };
        /** RunProgress */
        RunProgress: {
            /** Detail */
            detail: string;
            /** Done */
            done: number;
            /**
             * Phase
             * @enum {string}
             */
            phase: "queued" | "scanning" | "extracting" | "embedding" | "done";
            /** Total */
            total: number;
        };
        /** RunSnapshot */
        RunSnapshot: {
            /** Created At */
            created_at: string;
            /** Documents */
            documents: components["schemas"]["RunDocument"][];
            /** Executions */
            executions: {
                [key: string]: number;
            };
            progress: components["schemas"]["RunProgress"];
            /** Source */
            source: string;
            /** Status */
            status: string;
            /** Steps */
            steps: components["schemas"]["RunStep"][];
            /** Workflow Id */
            workflow_id: string;
        };
        /** RunStep */
        RunStep: {
            /** Finished At */
            finished_at: string | null;
            /** Name */
            name: string;
            /** Started At */
            started_at: string | null;
            /**
             * Status
             * @enum {string}
             */
            status: "running" | "finished" | "error";
        };
        /**
         * RunSummary
         * @description A run in the list of recent runs.
         */
        RunSummary: {
            /** Created At */
            created_at: string;
            /** Detail */
            detail: string;
            /** Documents */
            documents: number;
            /** Done */
            done: number;
            /**
             * Phase
             * @enum {string}
             */
            phase: "queued" | "scanning" | "extracting" | "embedding" | "done";
            /** Source */
            source: string;
            /** Status */
            status: string;
            /** Total */
            total: number;
            /** Updated At */
            updated_at: string;
            /** Workflow Id */
            workflow_id: string;
        };
        /**
         * SchedulerOut
         * @description Which FSRS parameters reviews use, and how far the review log is from a personal fit.
         */
        SchedulerOut: {
            /** Default Parameters */
            default_parameters: number[];
            fit: components["schemas"]["FitOut"] | null;
            /** Hint */
            hint: string | null;
            job: components["schemas"]["JobOut"] | null;
            /** Needed */
            needed: number;
            /** Optimizer Installed */
            optimizer_installed: boolean;
            /** Parameters */
            parameters: number[];
            /** Personalised */
            personalised: boolean;
            /** Reviews */
            reviews: number;
            /** Spaced Reviews */
            spaced_reviews: number;
        };
        /**
         * ScopeIn
         * @description What to study: documents and/or categories (their union); both empty = the whole vault.
         */
        ScopeIn: {
            /** Categories */
            categories?: string[];
            /** Document Ids */
            document_ids?: string[];
        };
        /** ScopeOut */
        ScopeOut: {
            /** Categories */
            categories: string[];
            /** Document Ids */
            document_ids: string[];
        };
        /** SearchResponse */
        SearchResponse: {
            /** Hits */
            hits: components["schemas"]["Hit"][];
            /**
             * Mode
             * @enum {string}
             */
            mode: "hybrid" | "dense" | "sparse";
            /** Notice */
            notice?: string | null;
            /** Query */
            query: string;
        };
        /**
         * SectionRow
         * @description Where a section starts: the outline's entries (the viewer's `Section`).
         */
        SectionRow: {
            /** Block Id */
            block_id: string;
            /** Ordinal */
            ordinal: number;
            /** Page */
            page: number | null;
            /** Title */
            title: string;
        };
        /** SegmentOut */
        SegmentOut: {
            /** Hidden */
            hidden: boolean;
            /** Hint */
            hint: string | null;
            /** Text */
            text: string;
        };
        /** SessionOut */
        SessionOut: {
            /**
             * Day
             * Format: date
             */
            day: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            /** Events */
            events: number;
            /** Kinds */
            kinds: {
                [key: string]: number;
            };
            /** Local Start */
            local_start: string;
            /** Minutes */
            minutes: number;
            /** Seconds */
            seconds: number;
            /**
             * Start
             * Format: date-time
             */
            start: string;
        };
        /**
         * SourceOut
         * @description Where a generated item came from: "from: lecture-3.pdf, p. 12".
         */
        SourceOut: {
            /** Block Id */
            block_id: string;
            /** Document Id */
            document_id: string;
            /** Filename */
            filename: string;
            /** Page */
            page: number | null;
        };
        /** StartLine */
        StartLine: {
            data: components["schemas"]["StreamStart"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "start";
        };
        /** StorageLocation */
        StorageLocation: {
            /** Bytes */
            bytes?: number | null;
            /** Path */
            path: string | null;
        };
        /** StorageOut */
        StorageOut: {
            data_dir: components["schemas"]["StorageLocation"];
            database: components["schemas"]["DatabaseLocation"];
            docs_dir: components["schemas"]["StorageLocation"];
            prompts_dir: components["schemas"]["StorageLocation"];
        };
        /** StreamDone */
        StreamDone: {
            /** Message Id */
            message_id: string;
            /** Session Id */
            session_id: string;
        };
        /** StreamError */
        StreamError: {
            /**
             * Code
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "conflict" | "too_large" | "unsupported_media_type" | "invalid_request" | "too_many_requests" | "unavailable" | "http_error" | "internal_error" | "host_not_allowed" | "cross_site_request" | "database_unavailable" | "busy" | "malformed_upload" | "request_too_large" | "too_many_fields" | "field_too_large" | "too_many_files" | "no_files" | "empty_file" | "duplicate_name" | "invalid_category" | "invalid_on_conflict" | "name_conflict" | "name_taken" | "unsupported_type" | "content_mismatch" | "zip_bomb" | "pdf_corrupt" | "pdf_encrypted" | "pdf_no_pages" | "unreadable_pdf" | "csv_corrupt" | "docx_corrupt" | "pptx_corrupt" | "xlsx_corrupt" | "image_too_large" | "image_unreadable" | "ocr_unreadable" | "invalid_filename" | "no_text" | "extract_failed" | "file_missing" | "original_missing" | "not_ready" | "not_failed" | "not_trashed" | "current_version" | "invalid_document_id" | "unknown_documents" | "scope_too_large" | "url_invalid" | "url_scheme" | "url_private" | "url_unresolvable" | "url_unreachable" | "url_timeout" | "url_redirects" | "url_http_error" | "url_too_large" | "not_a_pdf" | "page_out_of_range" | "page_too_complex" | "block_not_found" | "missing_passage" | "invalid_page_range" | "out_of_range" | "empty_query" | "query_too_long" | "empty_message" | "message_too_long" | "too_many_attachments" | "invalid_attachment" | "unsupported_attachment" | "attachment_too_large" | "attachment_unreadable" | "attachment_failed" | "invalid_session_id" | "rewind_without_session" | "reuse_without_rewind" | "invalid_content" | "model_unavailable" | "model_error" | "empty_answer" | "prompt_error" | "storage_error" | "unknown_embedding_model" | "generation_failed" | "empty_scope" | "empty_title" | "lessons_incomplete" | "already_answered" | "invalid_choice" | "review_conflict" | "unknown_nodes" | "voice_unavailable" | "missing_audio" | "audio_too_large" | "audio_too_long" | "unreadable_audio" | "unsupported_audio" | "unsupported_language" | "audio_too_complex" | "no_weak_spots" | "not_enough_reviews" | "optimizer_missing" | "fit_failed" | "exam_in_past" | "exam_too_far" | "passage_removed" | "missing_update" | "invalid_card" | "draft_failed" | "lesson_not_written" | "not_a_note" | "note_moved" | "note_refused";
            /** Message */
            message: string;
            /** Retryable */
            retryable: boolean;
        };
        /** StreamStart */
        StreamStart: {
            /** Message Id */
            message_id: string;
            /** Session Id */
            session_id: string;
            /** User Message Id */
            user_message_id: string;
        };
        /** SummaryOut */
        SummaryOut: {
            /** Active Days */
            active_days: number;
            /** Card Reviews */
            card_reviews: number;
            /** Current Streak */
            current_streak: number;
            /** First Activity At */
            first_activity_at: string | null;
            /** Last Activity At */
            last_activity_at: string | null;
            /** Lessons Read */
            lessons_read: number;
            /** Longest Streak */
            longest_streak: number;
            /** Messages */
            messages: number;
            /** Mindmap Exports */
            mindmap_exports: number;
            /** Quiz Answers */
            quiz_answers: number;
            /** Sessions */
            sessions: number;
            /** Timezone */
            timezone: string;
            /** Today Minutes */
            today_minutes: number;
            /** Today Seconds */
            today_seconds: number;
            /** Total Minutes */
            total_minutes: number;
            /** Total Seconds */
            total_seconds: number;
        };
        /** SwitchIn */
        SwitchIn: {
            /**
             * Model
             * @description A model from `choices` (e.g. `ollama:nomic-embed-text`); the active one cancels a switch under way
             */
            model: string;
        };
        /**
         * SwitchOut
         * @description A switch under way: searches use the active model until `done` reaches `total`.
         */
        SwitchOut: {
            /** Done */
            done: number;
            /** Name */
            name: string;
            /** Started At */
            started_at: string | null;
            /** Target */
            target: string;
            /** Total */
            total: number;
        };
        /** TableRows */
        TableRows: {
            /** Header */
            header: string[];
            /** Rows */
            rows: string[][];
            /** Sheet */
            sheet: string | null;
        };
        /**
         * Takeover
         * @description One takeover: `sessions_ended` > 0 means the process was hung (fenced), 0 that it was gone.
         */
        Takeover: {
            /**
             * At
             * Format: date-time
             */
            at: string;
            /** Executor Id */
            executor_id: string;
            /**
             * Mode
             * @enum {string}
             */
            mode: "server" | "worker";
            /** Sessions Ended */
            sessions_ended: number;
            /** Silent S */
            silent_s: number;
            /** Taken Over By */
            taken_over_by: string;
            /** Workflows */
            workflows: number;
        };
        /** TextLine */
        TextLine: {
            /** Data */
            data: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "text";
        };
        /** ThinkingLine */
        ThinkingLine: {
            /** Data */
            data: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "thinking";
        };
        /** TodayOut */
        TodayOut: {
            /**
             * Date
             * Format: date
             */
            date: string;
            /** Learnt Today */
            learnt_today: number;
            /** Missed */
            missed: number;
            /** New Due */
            new_due: number;
            quiz: components["schemas"]["QuizPlanOut"] | null;
            /** Reviews Done */
            reviews_done: number;
            /** Reviews Due */
            reviews_due: number;
        };
        /** ToolCallEvent */
        ToolCallEvent: {
            /** Args */
            args: {
                [key: string]: unknown;
            };
            /**
             * By
             * @enum {string}
             */
            by: "quire" | "model";
            /** Id */
            id: string;
            /** Name */
            name: string;
            /**
             * Status
             * @enum {string}
             */
            status: "started" | "finished";
            /** Summary */
            summary?: string;
        };
        /** ToolLine */
        ToolLine: {
            data: components["schemas"]["ToolCallEvent"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tool";
        };
        /** TranscriptOut */
        TranscriptOut: {
            /** Duration S */
            duration_s: number;
            /** Language */
            language: string;
            /** Text */
            text: string;
        };
        /** TrashEmptied */
        TrashEmptied: {
            /** Deleted */
            deleted: number;
        };
        /**
         * UpdateDraftOut
         * @description The model's rewrite of a flagged item for its new passage, to edit and send back with `update`.
         */
        UpdateDraftOut: {
            card?: components["schemas"]["CardText"] | null;
            question?: components["schemas"]["QuizItem"] | null;
        };
        /** UploadAccepted */
        UploadAccepted: {
            /** Documents */
            documents: components["schemas"]["AcceptedDocument"][];
            /**
             * Rejected
             * @default []
             */
            rejected: components["schemas"]["RejectedUpload"][];
            /** Workflow Id */
            workflow_id: string | null;
        };
        /** UrlImport */
        UrlImport: {
            /** Category */
            category?: string | null;
            /** Url */
            url: string;
        };
        /** VaultStats */
        VaultStats: {
            blocks: components["schemas"]["BlockCounts"];
            documents: components["schemas"]["DocumentCounts"];
            index: components["schemas"]["IndexOut"];
            models: components["schemas"]["ModelsOut"];
            outbound: components["schemas"]["OutboundOut"];
            privacy: components["schemas"]["PrivacyOut"];
            storage: components["schemas"]["StorageOut"];
        };
        /** VersionDeleted */
        VersionDeleted: {
            /** Deleted */
            deleted: number;
        };
        /** VersionList */
        VersionList: {
            /** Versions */
            versions: components["schemas"]["VersionRow"][];
        };
        /** VersionRow */
        VersionRow: {
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Current */
            current: boolean;
            /** Filename */
            filename: string;
            /** Kind */
            kind: ("pdf" | "docx" | "pptx" | "xlsx" | "csv" | "md" | "txt" | "html" | "image" | "audio") | null;
            /** Pages */
            pages: number | null;
            /** Sha256 */
            sha256: string;
            /** Size Bytes */
            size_bytes: number | null;
            /** Version */
            version: number;
        };
        /**
         * ViewerBlock
         * @description A live block as the viewer shows it: its row, and a table block's cells.
         */
        ViewerBlock: {
            /** Id */
            id: string;
            /** Kind */
            kind: string;
            /** Ordinal */
            ordinal: number;
            /** Page */
            page: number | null;
            /** Section */
            section: string | null;
            /** @description Cells of a table block (sheet, CSV or DOCX table rows) */
            table: components["schemas"]["TableRows"] | null;
            /** Text */
            text: string;
        };
        /**
         * VoiceHealth
         * @description Speech to text (optional): which local model answers `/api/transcribe`, or what to install.
         */
        VoiceHealth: {
            /** Available */
            available: boolean;
            /** Hint */
            hint: string | null;
            /** Model */
            model: string | null;
            /** Multilingual */
            multilingual: boolean;
        };
        /** WeakSpotsOut */
        WeakSpotsOut: {
            /**
             * Days
             * @default 30
             */
            days: number;
            /** Passages */
            passages: number;
        };
        /** WeakSpotsRequest */
        WeakSpotsRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Count
             * @default 10
             * @enum {integer}
             */
            count: 5 | 10 | 20;
            scope?: components["schemas"]["ScopeIn"];
        };
        /** WorkshopOut */
        WorkshopOut: {
            /** Completed Lessons */
            completed_lessons: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Difficulty
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            /** Id */
            id: string;
            /** Key Points */
            key_points: string[];
            /** Lesson Count */
            lesson_count: number;
            /** Lessons */
            lessons: components["schemas"]["LessonMeta"][];
            /** Objectives */
            objectives: string[];
            /** Progress */
            progress: number;
            /** Recap Quiz Id */
            recap_quiz_id: string | null;
            scope: components["schemas"]["ScopeOut"];
            /** Sources */
            sources: components["schemas"]["SourceOut"][];
            /** Summary */
            summary: string;
            /** Title */
            title: string;
            /** Total Minutes */
            total_minutes: number;
        };
        /** WorkshopRequest */
        WorkshopRequest: {
            /** Client Token */
            client_token?: string | null;
            /**
             * Difficulty
             * @default intermediate
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            /**
             * Lessons
             * @default 5
             */
            lessons: number;
            scope?: components["schemas"]["ScopeIn"];
        };
        /** WorkshopSummary */
        WorkshopSummary: {
            /** Completed Lessons */
            completed_lessons: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Difficulty
             * @enum {string}
             */
            difficulty: "beginner" | "intermediate" | "advanced";
            /** Id */
            id: string;
            /** Lesson Count */
            lesson_count: number;
            /** Progress */
            progress: number;
            /** Recap Quiz Id */
            recap_quiz_id: string | null;
            scope: components["schemas"]["ScopeOut"];
            /** Summary */
            summary: string;
            /** Title */
            title: string;
            /** Total Minutes */
            total_minutes: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_categories_api_categories_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryRow"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    chat_api_chat_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatRequest"];
            };
        };
        responses: {
            /** @description NDJSON: one `ChatStreamLine` a line (DESIGN §5) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": components["schemas"]["ChatStreamLine"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_sessions_api_chat_sessions_get: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatSessionOut"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_session_api_chat_sessions__session_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatSessionDetail"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_session_api_chat_sessions__session_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rename_session_api_chat_sessions__session_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatSessionRename"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatSessionOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_documents_api_documents_get: {
        parameters: {
            query?: {
                status?: ("queued" | "ingesting" | "ready" | "failed" | "trashed") | null;
                category?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    upload_documents_api_documents_post: {
        parameters: {
            query?: {
                on_conflict?: ("ask" | "replace" | "keep_both") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    category?: string;
                    files: string[];
                    /**
                     * @default ask
                     * @enum {string}
                     */
                    on_conflict?: "ask" | "replace" | "keep_both";
                };
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadAccepted"];
                };
            };
            /** @description `name_conflict` (with `on_conflict=ask`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NameConflictError"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    import_document_url_api_documents_url_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UrlImport"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadAccepted"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_document_api_documents__document_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_document_api_documents__document_id__delete: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"];
                };
            };
            /** @description With `permanent=true`: deleted for good */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    update_document_api_documents__document_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CategoryUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    document_blocks_api_documents__document_id__blocks_get: {
        parameters: {
            query?: {
                /** @description Every block of this page or slide */
                page?: number | null;
                /** @description A window of blocks around this block */
                around?: string | null;
                /** @description First ordinal, when neither page nor around is given */
                start?: number;
                limit?: number;
            };
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BlockWindow"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    document_file_api_documents__document_id__file_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    document_outline_api_documents__document_id__outline_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outline"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    document_page_image_api_documents__document_id__pages__page__png_get: {
        parameters: {
            query?: {
                /** @description Zoom; bounded by pixel count */
                scale?: number;
            };
            header?: never;
            path: {
                document_id: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": unknown;
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    document_page_highlights_api_documents__document_id__pages__page__highlights_get: {
        parameters: {
            query?: {
                /** @description Highlight this block's text (a cited passage) */
                block?: string | null;
                /** @description Or highlight this text */
                q?: string | null;
                /** @description Or box every word beginning with one of these */
                words?: string[] | null;
            };
            header?: never;
            path: {
                document_id: string;
                page: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PageHighlights"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restore_document_api_documents__document_id__restore_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retry_document_api_documents__document_id__retry_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadAccepted"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_versions_api_documents__document_id__versions_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_version_api_documents__document_id__versions__version__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionDeleted"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    version_file_api_documents__document_id__versions__version__file_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restore_version_api_documents__document_id__versions__version__restore_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    health_api_health_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ready_api_health_ready_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description This process cannot serve now (its database is unreachable) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_runs_api_ingest_get: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunSummary"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_run_api_ingest__workflow_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An ingestion workflow id */
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunSnapshot"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancel_run_api_ingest__workflow_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An ingestion workflow id */
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunSnapshot"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    run_events_api_ingest__workflow_id__events_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An ingestion workflow id */
                workflow_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    create_note_api_notes_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoteIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    note_from_answer_api_notes_from_answer_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnswerNoteIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_note_api_notes__document_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    edit_note_api_notes__document_id__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                document_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoteEdit"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_badges_api_progress_badges_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BadgesOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_breakdown_api_progress_breakdown_get: {
        parameters: {
            query?: {
                days?: number | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BreakdownOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_daily_api_progress_daily_get: {
        parameters: {
            query?: {
                days?: number;
                end?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DailyOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_day_api_progress_day__day__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                day: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DayDetailOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_sessions_api_progress_sessions_get: {
        parameters: {
            query?: {
                limit?: number;
                before?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionOut"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    progress_summary_api_progress_summary_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SummaryOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_refusals_api_refusals_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusalList"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    dismiss_all_refusals_api_refusals_delete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusalsDismissed"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    dismiss_refusal_api_refusals__refusal_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                refusal_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefusalsDismissed"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    search_api_search_get: {
        parameters: {
            query: {
                /** @description What to look for */
                q: string;
                k?: number;
                /** @description Document ids (repeat or comma-separate) */
                documents?: string[] | null;
                /** @description Category names (repeat or comma-separate) */
                categories?: string[] | null;
                mode?: "hybrid" | "dense" | "sparse";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    source_changes_api_study_changes_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangesOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    draft_change_api_study_changes_draft_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ItemRef"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateDraftOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resolve_change_api_study_changes_resolve_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResolveIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_decks_api_study_decks_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeckSummary"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_deck_api_study_decks_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeckRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    create_deck_api_study_decks_manual_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewDeckIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeckSummary"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_deck_api_study_decks__deck_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeckOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_deck_api_study_decks__deck_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    add_card_api_study_decks__deck_id__cards_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CardIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_card_api_study_decks__deck_id__cards__card_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    edit_card_api_study_decks__deck_id__cards__card_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
                card_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CardPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    review_card_api_study_decks__deck_id__cards__card_id__review_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deck_id: string;
                card_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    due_cards_api_study_decks__deck_id__due_get: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path: {
                deck_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DueOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    export_deck_api_study_decks__deck_id__export_get: {
        parameters: {
            query?: {
                format?: "csv" | "apkg";
            };
            header?: never;
            path: {
                deck_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    draft_card_api_study_drafts_card_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CardDraftIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CardDraftOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_guides_api_study_guides_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuideSummary"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_guide_api_study_guides_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GuideRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_guide_api_study_guides__guide_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                guide_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GuideOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_guide_api_study_guides__guide_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                guide_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    export_guide_api_study_guides__guide_id__export_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                guide_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_jobs_api_study_jobs_get: {
        parameters: {
            query?: {
                status?: ("queued" | "running" | "succeeded" | "failed")[] | null;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_job_api_study_jobs__job_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_mindmaps_api_study_mindmaps_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MindmapSummary"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_mindmap_api_study_mindmaps_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MindmapRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_mindmap_api_study_mindmaps__mindmap_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MindmapOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_mindmap_api_study_mindmaps__mindmap_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    record_export_api_study_mindmaps__mindmap_id__exports_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExportIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    save_layout_api_study_mindmaps__mindmap_id__layout_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LayoutIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MindmapOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reset_layout_api_study_mindmaps__mindmap_id__layout_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MindmapOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mindmap_markdown_api_study_mindmaps__mindmap_id__markdown_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                mindmap_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_overviews_api_study_overviews_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OverviewSummary"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_overview_api_study_overviews_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OverviewRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_overview_api_study_overviews__overview_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                overview_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OverviewOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_overview_api_study_overviews__overview_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                overview_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    overview_audio_api_study_overviews__overview_id__audio_get: {
        parameters: {
            query?: {
                download?: boolean;
            };
            header?: never;
            path: {
                overview_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_plans_api_study_plans_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanOut"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    create_plan_api_study_plans_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_plan_api_study_plans__plan_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_plan_api_study_plans__plan_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    update_plan_api_study_plans__plan_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanPatch"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    today_cards_api_study_plans__plan_id__today_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                plan_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanCardsOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_quizzes_api_study_quizzes_get: {
        parameters: {
            query?: {
                workshop_id?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuizSummary"][];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_quiz_api_study_quizzes_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuizRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_quiz_api_study_quizzes__quiz_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuizOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_quiz_api_study_quizzes__quiz_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_attempts_api_study_quizzes__quiz_id__attempts_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"][];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    start_attempt_api_study_quizzes__quiz_id__attempts_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AttemptIn"] | null;
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_attempt_api_study_quizzes__quiz_id__attempts__attempt_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
                attempt_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttemptOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answer_api_study_quizzes__quiz_id__attempts__attempt_id__answers_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                quiz_id: string;
                attempt_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnswerIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GradedAnswer"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    export_quiz_api_study_quizzes__quiz_id__export_get: {
        parameters: {
            query?: {
                mode?: "questions" | "answers" | "explanations";
            };
            header?: never;
            path: {
                quiz_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    scheduler_api_study_scheduler_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulerOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    optimize_scheduler_api_study_scheduler_optimize_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    practise_weak_spots_api_study_weak_spots_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WeakSpotsRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    count_weak_spots_api_study_weak_spots_count_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WeakSpotsOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    list_workshops_api_study_workshops_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkshopSummary"][];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generate_workshop_api_study_workshops_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkshopRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_workshop_api_study_workshops__workshop_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkshopOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    delete_workshop_api_study_workshops__workshop_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    open_lesson_api_study_workshops__workshop_id__lessons__n__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
                n: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LessonOut"] | components["schemas"]["JobOut"];
                };
            };
            /** @description being written */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    complete_lesson_api_study_workshops__workshop_id__lessons__n__complete_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
                n: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CompleteIn"] | null;
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    regenerate_lesson_api_study_workshops__workshop_id__lessons__n__regenerate_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
                n: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    workshop_progress_api_study_workshops__workshop_id__progress_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProgressOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recap_quiz_api_study_workshops__workshop_id__recap_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                workshop_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobOut"];
                };
            };
            /** @description Not found: `not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transcribe_api_transcribe_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    audio: string;
                    /** @description e.g. en or de; omit to detect */
                    language?: string;
                };
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    empty_trash_api_trash_delete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrashEmptied"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    get_embedding_api_vault_embedding_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    switch_model_api_vault_embedding_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SwitchIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingOut"];
                };
            };
            /** @description Invalid request: `invalid_request` (each field's problem in `details`) or a rule of this endpoint */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancel_switch_api_vault_embedding_switch_delete: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingOut"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    stats_api_vault_stats_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VaultStats"];
                };
            };
            /** @description Any other error, with its own `code` */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
