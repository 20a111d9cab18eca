/** Whether an exam plan is on track, as a badge (the study hub and the dashboard show it alike). */
import type { components } from "@/api/schema";
import { Badge, type Tone } from "./Badge";

type PlanStatus = components["schemas"]["PlanOut"]["status"];

const STATUS: Record<PlanStatus, { label: string; tone: Tone }> = {
  on_track: { label: "On track", tone: "ok" },
  behind: { label: "Behind", tone: "warn" },
  exam_today: { label: "Exam today", tone: "accent" },
  exam_passed: { label: "Exam passed", tone: "neutral" },
  nothing_to_study: { label: "No cards yet", tone: "neutral" },
};

export function PlanStatusBadge({ status }: { status: PlanStatus }) {
  const { label, tone } = STATUS[status];
  return <Badge tone={tone} dot>{label}</Badge>;
}
