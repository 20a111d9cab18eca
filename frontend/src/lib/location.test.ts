import { describe, expect, it } from "vitest";
import { formatLength, formatLocation, sheetName } from "./location";

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
