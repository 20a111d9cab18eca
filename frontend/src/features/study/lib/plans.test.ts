import { describe, expect, it } from "vitest";
import { examWhen, percent } from "./plans";

describe("exam plans", () => {
  it("say when the exam is", () => {
    expect(examWhen({ days_left: 0, status: "exam_today" })).toBe("today");
    expect(examWhen({ days_left: 1, status: "on_track" })).toBe("tomorrow");
    expect(examWhen({ days_left: 12, status: "behind" })).toBe("in 12 days");
    expect(examWhen({ days_left: 0, status: "exam_passed" })).toBe("passed");
  });

  it("show retention as a whole percentage", () => {
    expect(percent(0.9)).toBe("90%");
    expect(percent(0.8765)).toBe("88%");
  });
});
