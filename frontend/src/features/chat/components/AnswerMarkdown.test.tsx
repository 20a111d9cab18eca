// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Citation } from "../api/types";
import { AnswerMarkdown } from "./AnswerMarkdown";

const citation: Citation = {
  n: 1, block_id: "b1", document_id: "d1", filename: "bio.pdf", page: 3, section: null, snippet: "s", score: 1,
  text: "", relevant: true,
};

describe("AnswerMarkdown", () => {
  it("renders [n] as a button that opens the source", () => {
    const onCite = vi.fn();
    render(<AnswerMarkdown text="Chlorophyll absorbs light [1]." citations={[citation]} onCite={onCite} />);
    fireEvent.click(screen.getByRole("button", { name: "Source 1: bio.pdf, page 3" }));
    expect(onCite).toHaveBeenCalledWith(citation);
  });

  it("names slides, sheets and printed page labels in the button", () => {
    const slides: Citation = { ...citation, n: 2, filename: "talk.pptx", page: 4, kind: "pptx" };
    const sheet: Citation = { ...citation, n: 3, filename: "grades.xlsx", page: 2, kind: "xlsx", section: "Sheet: Marks" };
    const labelled: Citation = { ...citation, n: 4, filename: "book.pdf", page: 9, page_label: "vii", kind: "pdf" };
    render(<AnswerMarkdown text="See [2], [3] and [4]." citations={[slides, sheet, labelled]} onCite={() => undefined} />);
    expect(screen.getByRole("button", { name: "Source 2: talk.pptx, slide 4" })).toBeTruthy();
    expect(screen.getByRole("button", { name: 'Source 3: grades.xlsx, sheet "Marks"' })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Source 4: book.pdf, page vii (page 9)" })).toBeTruthy();
  });

  it("never renders raw HTML or script links from the model", () => {
    const { container } = render(
      <AnswerMarkdown
        text={'Hi <img src=x onerror="alert(1)"> <script>alert(1)</script> [x](javascript:alert(1)) **bold**'}
        citations={[]}
        onCite={() => undefined}
      />,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    const link = container.querySelector("a");
    expect(link?.getAttribute("href") ?? "").not.toMatch(/javascript/i);
    expect(container.querySelector("strong")?.textContent).toBe("bold");
  });
});
