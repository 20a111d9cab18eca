// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EMPTY_SCOPE, ScopePicker } from "./ScopePicker";

const doc = (filename: string, status: string) => ({
  id: `id-${filename}`, filename, status, category: null, kind: "md", blocks: status === "ready" ? 3 : 0,
  created_at: "2026-12-01T10:00:00Z", updated_at: "2026-12-01T10:00:00Z", current_version: 1, versions: 1,
  trashed_at: status === "trashed" ? "2026-12-01T11:00:00Z" : null,
});

afterEach(() => vi.unstubAllGlobals());

describe("ScopePicker", () => {
  it("never offers failed or trashed documents", async () => {
    const documents = [doc("ready.md", "ready"), doc("coming.md", "ingesting"), doc("broken.pdf", "failed"), doc("old.md", "trashed")];
    vi.stubGlobal("fetch", vi.fn(async (path: string) =>
      new Response(JSON.stringify(path.startsWith("/api/documents") ? documents : []), { status: 200 })));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ScopePicker value={EMPTY_SCOPE} onChange={() => undefined} />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "All documents" }));
    expect(await screen.findByRole("menuitemcheckbox", { name: "ready.md" })).toBeInTheDocument();
    expect(screen.getByRole("menuitemcheckbox", { name: "coming.md" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitemcheckbox", { name: "broken.pdf" })).toBeNull();
    expect(screen.queryByRole("menuitemcheckbox", { name: "old.md" })).toBeNull();
  });
});
