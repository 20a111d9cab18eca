import { describe, expect, it } from "vitest";
import { hitPlace } from "./search";

describe("hitPlace", () => {
  it("names the printed page label beside the physical page, slides and sheets as citations do", () => {
    expect(hitPlace({ page: 6, page_label: "3", section: null, document_kind: "pdf" })).toBe("Page 3 (page 6)");
    expect(hitPlace({ page: 4, page_label: null, section: "Intro", document_kind: "pdf" })).toBe("Page 4");
    expect(hitPlace({ page: 2, page_label: null, section: null, document_kind: "pptx" })).toBe("Slide 2");
    expect(hitPlace({ page: null, page_label: null, section: "Sheet: arts", document_kind: "xlsx" })).toBe('Sheet "arts"');
  });

  it("falls back to the last two levels of the section", () => {
    expect(hitPlace({ page: null, page_label: null, section: "A > B > C", document_kind: "md" })).toBe("B › C");
  });
});
