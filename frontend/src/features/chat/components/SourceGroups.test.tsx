// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Citation } from "../api/types";
import { SourceGroups } from "./SourceGroups";

// `relevant` left out: a citation stored before the server judged relevance (the UI counts it relevant).
const citation = (n: number, relevant?: boolean): Citation => ({
  n, block_id: `b${n}`, document_id: "d", filename: `notes-${n}.md`, page: null, section: null, snippet: `passage ${n}`,
  score: 0.1, text: "", ...(relevant === undefined ? {} : { relevant }),
}) as Citation;

afterEach(cleanup);

describe("the sources of an answer", () => {
  it("shows no cards when nothing is relevant, the closest passages only on request", () => {
    render(<SourceGroups citations={[citation(1, false), citation(2, false)]} cited={[]} onOpen={vi.fn()} />);
    expect(screen.getByTestId("not-covered").textContent).toMatch(/don.t seem to cover this/);
    expect(screen.queryAllByTestId("source-card")).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Show closest passages anyway" }));
    expect(screen.getAllByTestId("source-card")).toHaveLength(2);
  });

  it("puts the cited sources first and folds the rest under Also searched", () => {
    render(<SourceGroups citations={[citation(1, true), citation(2, false), citation(3, true)]} cited={[3]} onOpen={vi.fn()} />);
    expect(screen.queryByTestId("not-covered")).toBeNull();
    expect(screen.getAllByTestId("source-card").map((card) => card.textContent)).toEqual([expect.stringContaining("notes-3.md")]);
    const toggle = screen.getByRole("button", { name: /Also searched · 2 passages/ });
    fireEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const cards = screen.getAllByTestId("source-card").map((card) => card.textContent);
    expect(cards).toHaveLength(3);
    expect(cards[0]).toContain("notes-3.md");
  });

  it("treats answers stored before relevance was judged as covered", () => {
    render(<SourceGroups citations={[citation(1)]} cited={[1]} onOpen={vi.fn()} />);
    expect(screen.getAllByTestId("source-card")).toHaveLength(1);
  });
});
