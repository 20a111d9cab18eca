import { describe, expect, it } from "vitest";
import { filenameFromDisposition, slugify } from "./download";

describe("download names", () => {
  it("reads the server's file name, preferring the UTF-8 form", () => {
    expect(filenameFromDisposition(`attachment; filename="a_b.md"; filename*=UTF-8''a%C3%A9b.md`)).toBe("aéb.md");
    expect(filenameFromDisposition(`attachment; filename="plain.csv"`)).toBe("plain.csv");
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition("inline")).toBeNull();
  });

  it("makes safe file stems from titles", () => {
    expect(slugify("Cells & Energy: Part 1!")).toBe("cells-energy-part-1");
    expect(slugify("Élan vital")).toBe("elan-vital");
    expect(slugify("!!!")).toBe("export");
  });
});
