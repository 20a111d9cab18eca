/** Following an audio overview as it plays: which line is heard at a moment, and times as people read them. */
import type { OverviewLine } from "../api/types";

/** The index of the line heard at `time` (seconds): the last one started by then; -1 before the first. */
export function lineAt(lines: readonly Pick<OverviewLine, "start_s">[], time: number): number {
  let current = -1;
  lines.forEach((line, index) => {
    if (line.start_s !== null && line.start_s <= time + 0.05) current = index;
  });
  return current;
}

/** 75.4 → "1:15". */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
