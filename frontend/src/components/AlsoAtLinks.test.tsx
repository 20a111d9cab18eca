// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { AlsoAtLinks, type AlsoAtPlace } from "./AlsoAtLinks";

const at = (block_id: string, page: number | null): AlsoAtPlace => ({ block_id, page, page_label: null, section: "Notes" });

function renderLinks(places: AlsoAtPlace[], kind: string) {
  return render(
    <MemoryRouter>
      <AlsoAtLinks documentId="doc-1" places={places} kind={kind} q="kiln" />
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("AlsoAtLinks", () => {
  it("links each named page to its place in the viewer, in formatAlsoAt's words", () => {
    renderLinks([at("b3", 3), at("b5", 5), at("b5b", 5), at("b7", 7), at("b9", 9)], "pdf");
    expect(screen.getByTestId("also-at")).toHaveTextContent("Also on p. 3, p. 5, p. 7 and 1 more");
    expect(screen.getByRole("link", { name: "p. 5" })).toHaveAttribute("href", "/library/documents/doc-1?block=b5&page=5&q=kiln");
    expect(screen.getAllByRole("link")).toHaveLength(3);
  });

  it("numbers the places of a document without pages", () => {
    renderLinks([at("w1", null), at("w2", null), at("w3", null), at("w4", null)], "docx");
    expect(screen.getByTestId("also-at")).toHaveTextContent("Also 4 more times in this document: 1 · 2 · 3 and 1 more");
    expect(screen.getByRole("link", { name: "Open the copy 2 of this passage" })).toHaveAttribute(
      "href", "/library/documents/doc-1?block=w2&q=kiln");
  });

  it("shows nothing when the text stands nowhere else", () => {
    renderLinks([], "pdf");
    expect(screen.queryByTestId("also-at")).toBeNull();
  });
});
