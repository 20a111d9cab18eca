// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { ToastProvider } from "@/components/Toast";
import type { LibraryDocument } from "../api/types";
import { DocumentsTable } from "./DocumentsTable";

afterEach(cleanup);

function document(fields: Partial<LibraryDocument>): LibraryDocument {
  return {
    id: "d1", filename: "osmosis.md", category: null, kind: "md", mime: "text/markdown", size_bytes: 120, pages: null,
    blocks: 1, embedded: 1, embedded_fraction: 1, status: "ready", error: null, warnings: [], page_warnings: [],
    current_version: 1, versions: 1, last_workflow_id: null, source_kind: "document", source_url: null,
    created_at: "2026-12-07T10:00:00Z", updated_at: "2026-12-07T10:00:00Z", trashed_at: null,
    ...fields,
  };
}

function renderTable(documents: LibraryDocument[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter><DocumentsTable documents={documents} live={new Map()} categoryListId="categories" /></MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe("DocumentsTable", () => {
  it("lists a ready document's warnings in its row, where they stay after the upload's activity is gone", () => {
    const cancelled = "Ingestion was cancelled; upload the file again to add it.";
    renderTable([
      document({ id: "kept", filename: "osmosis.md", warnings: [cancelled] }),
      document({ id: "clean", filename: "tides.md" }),
    ]);
    const rows = screen.getAllByTestId("document-row");
    const kept = rows.find((row) => row.dataset.filename === "osmosis.md");
    const clean = rows.find((row) => row.dataset.filename === "tides.md");
    expect(kept && within(kept).getByTestId("document-warning")).toHaveTextContent(cancelled);
    expect(clean && within(clean).queryByTestId("document-warning")).toBeNull();
  });
});
