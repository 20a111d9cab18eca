import { describe, expect, it } from "vitest";
import { withoutKindPrefix } from "./titles";

describe("titles", () => {
  it("drops the kind from a default title where the kind is already shown", () => {
    expect(withoutKindPrefix("Quiz: lecture-3.pdf + 2 more", "Quiz")).toBe("lecture-3.pdf + 2 more");
    expect(withoutKindPrefix("Deck: whole vault", "Deck")).toBe("Whole vault");
    expect(withoutKindPrefix("Quiz: biology, chemistry", "Quiz")).toBe("Biology, chemistry");
    expect(withoutKindPrefix("Recap: Energy", "Quiz")).toBe("Recap: Energy");
    expect(withoutKindPrefix("Quiz: ", "Quiz")).toBe("Quiz: ");
  });
});
