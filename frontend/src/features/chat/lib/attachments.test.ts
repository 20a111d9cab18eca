import { describe, expect, it } from "vitest";
import { attachmentKind, attachmentProblem, pastedName } from "./attachments";

const file = (name: string, size = 100, type = "") => ({ name, size, type });

describe("attachments", () => {
  it("accepts images and documents the server can read", () => {
    expect(attachmentKind(file("photo.JPG"))).toBe("image");
    expect(attachmentKind(file("clipboard", 1, "image/png"))).toBe("image");
    expect(attachmentKind(file("notes.md"))).toBe("document");
    expect(attachmentKind(file("sheet.xlsx"))).toBeNull();
    // The server reads these by their content.
    expect(attachmentKind(file("report.doc"))).toBe("document");
    expect(attachmentKind(file("handout.docm"))).toBe("document");
    expect(attachmentKind(file("template.dotx"))).toBe("document");
    expect(attachmentKind(file("lecture-notes"))).toBe("document");
  });

  it("explains what can't be attached", () => {
    expect(attachmentProblem(file("a.png"), 0)).toBeNull();
    expect(attachmentProblem(file("a.png"), 5)).toMatch(/At most 5/);
    expect(attachmentProblem(file("a.exe"), 0)).toMatch(/only images/);
    expect(attachmentProblem(file("big.png", 11 * 1024 * 1024), 0)).toMatch(/limit is 10 MB/);
    expect(attachmentProblem(file("big.pdf", 11 * 1024 * 1024), 0)).toBeNull();
  });

  it("names pasted screenshots", () => {
    expect(pastedName(file("image.png", 1, "image/png"), new Date("2026-11-30T10:11:12Z"))).toBe("pasted-2026-11-30-10-11-12.png");
    expect(pastedName(file("diagram.png", 1, "image/png"))).toBe("diagram.png");
  });
});
