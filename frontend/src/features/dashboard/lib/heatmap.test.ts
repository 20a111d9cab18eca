import { describe, expect, it } from "vitest";
import { cellLabel, heatLevel, monthLabels, weekColumns, weekdayIndex, type HeatDay } from "./heatmap";

const day = (date: string, minutes: number, events = minutes > 0 ? 1 : 0, sessions = events ? 1 : 0): HeatDay =>
  ({ date, seconds: minutes * 60, events, sessions });

function series(start: string, count: number, minutes: (i: number) => number = () => 0): HeatDay[] {
  const first = Date.parse(`${start}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => day(new Date(first + i * 86_400_000).toISOString().slice(0, 10), minutes(i)));
}

describe("heat levels", () => {
  it("is 0 only for a day without any activity", () => {
    expect(heatLevel(day("2026-03-02", 0))).toBe(0);
    // An event with no counted time yet still shows as studied.
    expect(heatLevel({ seconds: 0, events: 1 })).toBe(1);
    expect(heatLevel({ seconds: 1, events: 0 })).toBe(1);
  });

  it("steps up at 15, 30 and 60 minutes", () => {
    const at = (minutes: number) => heatLevel(day("2026-03-02", minutes));
    expect([at(1), at(14.9), at(15), at(29.9), at(30), at(59.9), at(60), at(600)]).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it("keeps an all-zero series at level 0 (no relative scaling that would invent activity)", () => {
    expect(new Set(series("2026-01-01", 90).map(heatLevel))).toEqual(new Set([0]));
  });

  it("does not rescale: a lone short day stays a light cell", () => {
    const levels = series("2026-01-01", 10, (i) => (i === 4 ? 5 : 0)).map(heatLevel);
    expect(levels[4]).toBe(1);
    expect(levels.filter((level) => level > 0)).toHaveLength(1);
  });
});

describe("week grid", () => {
  it("starts weeks on Monday and pads the first and last week", () => {
    expect(weekdayIndex("2026-03-02")).toBe(0); // a Monday
    expect(weekdayIndex("2026-03-08")).toBe(6); // a Sunday
    const weeks = weekColumns(series("2026-03-04", 10)); // Wednesday → Friday of the next week
    expect(weeks).toHaveLength(2);
    expect(weeks[0]?.slice(0, 2)).toEqual([null, null]);
    expect(weeks[0]?.[2]?.date).toBe("2026-03-04");
    expect(weeks[1]?.[4]?.date).toBe("2026-03-13");
    expect(weeks[1]?.slice(5)).toEqual([null, null]);
  });

  it("lays 90 days into 13 or 14 full columns of seven", () => {
    const weeks = weekColumns(series("2026-01-05", 90));
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks.flat().filter(Boolean)).toHaveLength(90);
  });

  it("labels the column where each month starts", () => {
    const labels = monthLabels(weekColumns(series("2026-01-26", 14)));
    expect(labels).toEqual(["Jan", "Feb"]);
  });

  it("describes each cell in words", () => {
    expect(cellLabel(day("2026-03-03", 0))).toBe("Tue, Mar 3, 2026: no study");
    expect(cellLabel({ date: "2026-03-03", seconds: 25 * 60, sessions: 2, events: 7 }))
      .toBe("Tue, Mar 3, 2026: 25 min in 2 sessions, 7 activities");
  });
});
