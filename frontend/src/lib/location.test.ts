import { describe, expect, it } from "vitest";
import { formatAlsoAt, formatLength, formatLocation, sheetName } from "./location";

describe("formatLocation", () => {
  it("says p. N for a plain page, or nothing without one", () => {
    expect(formatLocation({ page: 12, kind: "pdf" })).toBe("p. 12");
    expect(formatLocation({ page: 12, kind: "pdf" }, "long")).toBe("page 12");
    expect(formatLocation({ page: 3 })).toBe("p. 3");
    expect(formatLocation({ page: null, kind: "md" })).toBe("");
    expect(formatLocation({})).toBe("");
  });

  it("counts slides for presentations", () => {
    expect(formatLocation({ page: 4, kind: "pptx", section: "Slide 4: Results" })).toBe("slide 4");
    expect(formatLocation({ page: 4, kind: "pptx" }, "long")).toBe("slide 4");
  });

  it("names the sheet of a workbook from the section", () => {
    expect(formatLocation({ page: 2, kind: "xlsx", section: "Sheet: Budget 2024" })).toBe('sheet "Budget 2024"');
    expect(formatLocation({ page: 2, kind: "xlsx", section: "Sheet: Q1 > Totals" })).toBe('sheet "Q1"');
    // No section: the sheet's number is all there is.
    expect(formatLocation({ page: 2, kind: "xlsx", section: null })).toBe("sheet 2");
    // An older citation without a kind still reads the sheet from its section.
    expect(formatLocation({ page: 1, section: "Sheet: Data" })).toBe('sheet "Data"');
  });

  it("shows a printed page label beside the physical page when they differ", () => {
    expect(formatLocation({ page: 6, page_label: "iv", kind: "pdf" })).toBe("p. iv (page 6)");
    expect(formatLocation({ page: 6, page_label: "iv", kind: "pdf" }, "long")).toBe("page iv (page 6)");
    expect(formatLocation({ page: 6, page_label: "6", kind: "pdf" })).toBe("p. 6");
    expect(formatLocation({ page: 6, page_label: " ", kind: "pdf" })).toBe("p. 6");
    expect(formatLocation({ page: 6, page_label: null, kind: "pdf" })).toBe("p. 6");
  });
});

describe("sheetName", () => {
  it("reads `Sheet: X` and nothing else", () => {
    expect(sheetName("Sheet: Grades")).toBe("Grades");
    expect(sheetName("Intro > Setup")).toBeNull();
    expect(sheetName(null)).toBeNull();
  });
});

describe("formatLength", () => {
  it("counts in the document's own unit", () => {
    expect(formatLength("pdf", 12)).toBe("12 pages");
    expect(formatLength("pptx", 1)).toBe("1 slide");
    expect(formatLength("xlsx", 3)).toBe("3 sheets");
    expect(formatLength("md", null)).toBe("—");
  });
});

describe("formatAlsoAt", () => {
  const at = (page: number | null, page_label: string | null = null, section: string | null = null) =>
    ({ block_id: `b${page}`, page, page_label, section });

  it("names the other pages of a repeated passage, a few of them", () => {
    expect(formatAlsoAt([at(12)], "pdf")).toBe("Also on p. 12");
    expect(formatAlsoAt([at(12), at(40)], "pdf")).toBe("Also on p. 12, p. 40");
    expect(formatAlsoAt([at(2), at(3), at(4), at(5), at(6)], "pdf")).toBe("Also on p. 2, p. 3, p. 4 and 2 more");
    expect(formatAlsoAt([at(6, "iv")], "pdf")).toBe("Also on p. iv (page 6)");
    expect(formatAlsoAt([at(3)], "pptx")).toBe("Also on slide 3");
  });

  it("counts places without a page, and says nothing when there are none", () => {
    expect(formatAlsoAt([at(null, null, "A > B")], "docx")).toBe("Also once more in this document");
    expect(formatAlsoAt([at(null), at(null), at(null)], "docx")).toBe("Also 3 more times in this document");
    expect(formatAlsoAt([], "pdf")).toBe("");
    expect(formatAlsoAt(undefined, "pdf")).toBe("");
  });
});
