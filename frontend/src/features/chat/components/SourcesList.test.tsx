// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Citation } from "../api/types";
import { SourcesList } from "./SourcesList";

afterEach(cleanup);

const source = (n: number, also_at?: Citation["also_at"]): Citation => ({
  n, block_id: `b${n}`, document_id: "d", filename: "handbook.pdf", page: n, section: null, snippet: `passage ${n}`,
  score: 0.1, text: "", relevant: true, kind: "pdf", ...(also_at ? { also_at } : {}),
});

describe("a source card", () => {
  it("says where else the document repeats the passage, and nothing for a passage it holds once", () => {
    const repeated = source(1, [{ block_id: "x", page: 12, page_label: null, section: null }]);
    render(<SourcesList citations={[repeated, source(2), source(3, [])]} cited={[1, 2, 3]} onOpen={vi.fn()} />);
    const notes = screen.getAllByTestId("also-at");
    expect(notes.map((note) => note.textContent)).toEqual(["Also on p. 12"]);
    expect(screen.getAllByTestId("source-card")[0]!.textContent).toContain("Also on p. 12");
  });
});
