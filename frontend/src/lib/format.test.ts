import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff";
import { fileTypeLabel, formatBytes, formatPercent, formatRelative, listNames, plural } from "./format";

describe("formatting", () => {
  it("never rounds an unfinished share up to 100% or a started one down to 0%", () => {
    expect(formatPercent(1)).toBe("100%");
    expect(formatPercent(0.999)).toBe("99%");
    expect(formatPercent(0.001)).toBe("<1%");
    expect(formatPercent(0)).toBe("0%");
    expect(formatPercent(0.5)).toBe("50%");
  });

  it("formats sizes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(25 * 1024 * 1024)).toBe("25 MB");
    expect(formatBytes(null)).toBe("—");
  });

  it("says counts in words", () => {
    expect(plural(1, "page")).toBe("1 page");
    expect(plural(1200, "passage")).toBe("1,200 passages");
    expect(plural(2, "category", "categories")).toBe("2 categories");
  });

  it("lists a few names, then says how many more", () => {
    expect(listNames(["a.pdf"])).toBe("a.pdf");
    expect(listNames(["a.pdf", "b.md"])).toBe("a.pdf and b.md");
    expect(listNames(["a.pdf", "b.md", "c.txt"])).toBe("a.pdf, b.md and c.txt");
    expect(listNames(["a.pdf", "b.md", "c.txt", "d.csv"])).toBe("a.pdf, b.md and 2 more");
    expect(listNames([])).toBe("");
  });

  it("says recent times relatively", () => {
    const now = new Date("2026-11-30T12:00:00Z");
    expect(formatRelative("2026-11-30T11:59:50Z", now)).toBe("just now");
    expect(formatRelative("2026-11-30T11:55:00Z", now)).toBe("5 minutes ago");
    expect(formatRelative("2026-11-29T12:00:00Z", now)).toBe("yesterday");
  });

  it("labels file types", () => {
    expect(fileTypeLabel("notes.final.pdf")).toBe("PDF");
    expect(fileTypeLabel("x.md", "md")).toBe("MD");
    expect(fileTypeLabel("handout.jpeg", "image")).toBe("JPEG");
    expect(fileTypeLabel("lecture.m4a", "audio")).toBe("M4A");
    expect(fileTypeLabel("README")).toBe("FILE");
  });

  it("backs off exponentially up to a cap", () => {
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });
});
