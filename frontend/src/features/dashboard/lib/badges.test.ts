import { describe, expect, it } from "vitest";
import { badgeProgressText, nextLevelName, orderBadges, type BadgeLike } from "./badges";

const badge = (code: string, patch: Partial<BadgeLike> = {}): BadgeLike => ({
  code, name: code.toUpperCase(), metric: "quiz_answers", target: 10, value: 0, progress: 0, earned: false, earned_at: null, next_level: null, ...patch,
});

describe("badges", () => {
  it("shows progress in the badge's own unit, never above the target", () => {
    expect(badgeProgressText({ metric: "study_minutes", value: 12.7, target: 60 })).toBe("12 of 60 minutes");
    expect(badgeProgressText({ metric: "sessions", value: 0, target: 1 })).toBe("0 of 1 session");
    expect(badgeProgressText({ metric: "card_reviews", value: 1200, target: 1000 })).toBe("1,000 of 1,000 reviews");
    expect(badgeProgressText({ metric: "unknown_metric", value: 2, target: 5 })).toBe("2 of 5");
  });

  it("orders earned badges first, newest first, then the closest ones", () => {
    const ordered = orderBadges([
      badge("far", { progress: 0.1 }),
      badge("old", { earned: true, earned_at: "2026-01-01T00:00:00Z", progress: 1 }),
      badge("close", { progress: 0.8 }),
      badge("new", { earned: true, earned_at: "2026-02-01T00:00:00Z", progress: 1 }),
      badge("zero-a"),
      badge("zero-b"),
    ]);
    expect(ordered.map((b) => b.code)).toEqual(["new", "old", "close", "far", "zero-a", "zero-b"]);
  });

  it("names the next level", () => {
    const all = [badge("first", { next_level: "second" }), badge("second")];
    expect(nextLevelName(all[0]!, all)).toBe("SECOND");
    expect(nextLevelName(all[1]!, all)).toBeNull();
  });
});
