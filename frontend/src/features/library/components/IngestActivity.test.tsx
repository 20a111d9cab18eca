// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { UploadAccepted } from "@/api/types";
import { ToastProvider } from "@/components/Toast";
import { IngestStore } from "../hooks/ingestStore";
import { IngestActivity } from "./IngestActivity";

afterEach(cleanup);

describe("IngestActivity", () => {
  it("says when a file was read by its content rather than its name", async () => {
    const store = new IngestStore();
    const accepted: UploadAccepted = {
      workflow_id: null,
      rejected: [],
      documents: [
        { id: "d1", filename: "report.doc", status: "queued", kind: "docx", read_as: "Read as a Word document: its name says .doc." },
        { id: "d2", filename: "notes.md", status: "queued", kind: "md", read_as: null },
      ],
    };
    await store.submit("2 files", async () => accepted);
    // The card also shows the embedding model's progress, read from /api/health (not answered here).
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
    render(<QueryClientProvider client={client}><ToastProvider><IngestActivity entries={store.getEntries()} documents={[]} /></ToastProvider></QueryClientProvider>);

    const rows = screen.getAllByTestId("ingest-item");
    const report = rows.find((row) => row.dataset.filename === "report.doc");
    const notes = rows.find((row) => row.dataset.filename === "notes.md");
    expect(report && within(report).getByTestId("read-as")).toHaveTextContent("Read as a Word document: its name says .doc.");
    expect(notes && within(notes).queryByTestId("read-as")).toBeNull();
  });
});
